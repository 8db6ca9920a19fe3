// The namespace the report's pages and the games' drawing scripts share. A game's script
// adds arenaReport.drawers["<game>"] = function (element, picture, context) {...}.
window.arenaReport = window.arenaReport || { drawers: {} };
