#!/bin/sh
# A bot that never reads its input (nor answers): before arena bounded what it writes to
# a bot, everything written to this one piled up in the arena's memory.
exec sleep 60
