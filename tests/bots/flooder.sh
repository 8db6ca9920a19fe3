#!/bin/bash
# A bot that floods the arena: it connects to $ARENA_PORT (bash's /dev/tcp) and writes
# "spam" lines as fast as it can, at most 200 MB, never reading. Before arena bounded what
# a bot may send unasked, one such bot slowed the replies of innocent bots in other games
# from 9 ms to 2.9 s and stored ~144k spam events.
exec 3<>"/dev/tcp/${ARENA_HOST}/${ARENA_PORT}"
yes spam | head -c 200000000 >&3
