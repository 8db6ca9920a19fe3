"""The HTML report: a static site of a database's runs, and each game's replay viewer."""
