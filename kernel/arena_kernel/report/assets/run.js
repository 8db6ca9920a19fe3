// The games list of a run page: filters by bot, result and fault kind, in plain script.
(function () {
  "use strict";
  const table = document.getElementById("games");
  if (!table) return;
  const bot = document.getElementById("filter-bot");
  const result = document.getElementById("filter-result");
  const fault = document.getElementById("filter-fault");
  const count = document.getElementById("games-shown");
  const rows = Array.from(table.tBodies[0].rows, (row) => ({
    row,
    bots: JSON.parse(row.dataset.bots),
    result: row.dataset.result,
    faults: row.dataset.faults ? row.dataset.faults.split(" ") : [],
  }));

  function wanted(entry) {
    if (bot.value && !entry.bots.includes(bot.value)) return false;
    if (result.value && entry.result !== result.value) return false;
    if (fault.value === "none") return entry.faults.length === 0;
    if (fault.value === "any") return entry.faults.length > 0;
    return !fault.value || entry.faults.includes(fault.value);
  }

  function apply() {
    let shown = 0;
    for (const entry of rows) {
      const visible = wanted(entry);
      entry.row.hidden = !visible;
      if (visible) shown += 1;
    }
    count.textContent = `${shown} of ${rows.length} games`;
  }

  for (const select of [bot, result, fault]) select.addEventListener("change", apply);
  apply();
})();
