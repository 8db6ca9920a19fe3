// The namespace the report's pages and the games' drawing scripts share. A game's script
// adds arenaReport.drawers["<game>"] = function (element, picture, context) {...}.
//
// The report's data files (data/*.js: the games lists, the replays) are scripts that hand
// their data to the page, since a page opened from disk may not fetch() a file:
// arenaReport.load(src, key) adds the script and resolves with what it hands over.
window.arenaReport = window.arenaReport || { drawers: {} };
(function (report) {
  "use strict";
  const waiting = {};
  const arrived = {};

  function arrive(key, data) {
    arrived[key] = data;
    const resolve = waiting[key];
    delete waiting[key];
    if (resolve) resolve(data);
  }

  report.load = function (src, key) {
    if (key in arrived) return Promise.resolve(arrived[key]);
    return new Promise((resolve, reject) => {
      waiting[key] = resolve;
      const tag = document.createElement("script");
      tag.src = src;
      tag.onerror = () => reject(new Error(`the report's file ${src} cannot be read`));
      document.head.appendChild(tag);
    });
  };

  // What the data files call.
  report.gameList = (run, text) => arrive(`games-${run}`, JSON.parse(text));
  report.firstGames = (run, text) => arrive(`first-${run}`, JSON.parse(text));
  report.replays = (number, records) => arrive(`replays-${number}`, records);

  // A replay record as its file holds it: base64 of gzip of JSON.
  report.inflate = async function (text) {
    if (typeof DecompressionStream === "undefined") {
      throw new Error("this browser cannot unpack the report's replays (it has no DecompressionStream)");
    }
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  };
})(window.arenaReport);
