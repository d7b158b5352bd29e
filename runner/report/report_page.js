"use strict";
// The report page's filters (runner/report/render_html.cc writes the page). They read the page's
// own text and data-* attributes and write only hidden, open, value, textContent and class names,
// so no report text ever becomes markup. The filters live in the address's query
// (?outcome=failed&q=...), so a view can be shared and comes back on reload; the fragment stays
// free for the details' anchors.
(function () {
  var FILTERS = ["outcome", "impl", "format", "operation", "level", "ground"];
  // The matrix columns (render_html_cases.cc): case and operation, one per implementation, then
  // these, counted from the end.
  var COLUMN = {id: 0, operation: 1, format: -5, level: -4, ground: -3, flag: -2, requirements: -1};
  var NOT_PASSED = ["failed", "errored", "known_failure"];
  var controls = {};
  FILTERS.forEach(function (name) {
    controls[name] = document.getElementById("filter-" + name);
  });
  var search = document.getElementById("filter-q");
  var shown = document.getElementById("shown");
  var noMatch = document.getElementById("no-match");
  var showAll = document.getElementById("show-all");
  // The matrix lists the matching rows CHUNK at a time, more as it is scrolled to its end or on a
  // click: laying out thousands of table rows at once takes a second or more.
  var CHUNK = 100;
  var matrixBox = document.querySelector(".scroll.matrix");
  var more = document.getElementById("matrix-more");
  var listed = document.getElementById("matrix-listed");
  var listNext = document.getElementById("matrix-next");
  var matching = [], limit = CHUNK;
  var NARROW = "(max-width: 40em)";

  function cell(tr, column) { return tr.cells[column < 0 ? tr.cells.length + column : column]; }
  function text(tr, column) { return cell(tr, column).textContent; }
  function outcomeOf(result) { return result.split(".")[0]; }
  function kindOf(result) { return result.split(".")[1] || ""; }

  // What the search looks in: the row's cells but the outcomes, and the expected, actual and
  // message of each implementation's answer (class "s" in the details).
  function haystack(tr, index, results) {
    var parts = [COLUMN.id, COLUMN.format, COLUMN.operation, COLUMN.level, COLUMN.flag,
                 COLUMN.requirements].map(function (c) { return text(tr, c); });
    results.forEach(function (_, impl) {
      var entry = document.getElementById("c" + index + "-" + impl);
      if (!entry) return;
      entry.querySelectorAll(".s").forEach(function (e) { parts.push(e.textContent); });
    });
    return parts.join("\n").toLowerCase();
  }

  var rows = Array.prototype.map.call(document.querySelectorAll("#matrix tbody tr"),
                                      function (tr) {
    var index = tr.id.slice(1), results = tr.dataset.o.split(" ");
    return {
      tr: tr,
      details: document.getElementById("c" + index),
      results: results,
      id: text(tr, COLUMN.id), operation: text(tr, COLUMN.operation),
      format: text(tr, COLUMN.format), level: text(tr, COLUMN.level),
      ground: text(tr, COLUMN.ground),
      haystack: haystack(tr, index, results),
    };
  });

  // fnmatch(3) without flags, as `arcs run --filter` matches case ids: * and ? match any
  // character, [...] a set ([!...] or [^...] its complement, a-z a range), \ quotes the next
  // character, and a [ without its ] is itself. (POSIX classes such as [:digit:] are not read.)
  function literal(c) { return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); }
  function bracketEnd(glob, i) {
    if (glob[i] === "!" || glob[i] === "^") i++;
    if (glob[i] === "]") i++;
    for (; i < glob.length; i++) {
      if (glob[i] === "\\") i++;
      else if (glob[i] === "]") return i;
    }
    return -1;
  }
  function bracket(body) {
    var out = "[";
    if (body[0] === "!" || body[0] === "^") {
      out += "^";
      body = body.slice(1);
    }
    for (var i = 0; i < body.length; i++) {
      var c = body[i];
      if (c === "-" && i > 0 && i < body.length - 1) {
        out += "-";
        continue;
      }
      if (c === "\\" && i + 1 < body.length) c = body[++i];
      out += literal(c);
    }
    return out + "]";
  }
  function globRegExp(glob) {
    var out = "";
    for (var i = 0; i < glob.length; i++) {
      var c = glob[i], end;
      if (c === "*") out += "[\\s\\S]*";
      else if (c === "?") out += "[\\s\\S]";
      else if (c === "\\" && i + 1 < glob.length) out += literal(glob[++i]);
      else if (c === "[" && (end = bracketEnd(glob, i + 1)) >= 0) {
        out += bracket(glob.slice(i + 1, end));
        i = end;
      } else out += literal(c);
    }
    return new RegExp("^" + out + "$");
  }

  // Every word must match: a glob (a word with * ? or [) the case id or "id/operation", as the
  // CLI's globs do, case-sensitively; any other word a part of the row's text, in any case.
  function searcher(query) {
    var tests = query.split(/\s+/).filter(Boolean).map(function (word) {
      if (/[*?[]/.test(word)) {
        var re = globRegExp(word);
        return function (row) { return re.test(row.id) || re.test(row.id + "/" + row.operation); };
      }
      var lower = word.toLowerCase();
      return function (row) { return row.haystack.indexOf(lower) >= 0; };
    });
    return function (row) { return tests.every(function (t) { return t(row); }); };
  }

  // The default view ("") lists the cases some implementation did not pass; "differ" those whose
  // outcomes differ between implementations; with an implementation chosen, only its result
  // counts (and, for "differ", whether another's differs from it).
  function outcomeMatches(results, want, impl) {
    var mine = impl < 0 ? results : [results[impl]];
    if (want === "all") return mine.some(function (r) { return r !== "none"; });
    if (want === "differ") {
      var base = outcomeOf(impl < 0 ? results[0] : results[impl]);
      return results.some(function (r) { return outcomeOf(r) !== base; });
    }
    return mine.some(function (r) {
      var outcome = outcomeOf(r);
      return want ? outcome === want || kindOf(r) === want : NOT_PASSED.indexOf(outcome) >= 0;
    });
  }

  // Writes an element's hidden only when it changes: every write invalidates its style.
  function setHidden(element, hidden) {
    if (element.hidden !== hidden) element.hidden = hidden;
  }

  // Lists the first `limit` matching rows in the matrix, and says how many more there are.
  function list() {
    var end = Math.min(limit, matching.length);
    rows.forEach(function (row) { row.listed = false; });
    for (var i = 0; i < end; i++) matching[i].listed = true;
    rows.forEach(function (row) { setHidden(row.tr, !row.listed); });
    setHidden(more, end >= matching.length);
    listed.textContent = "The matrix lists the first " + end + " of these " + matching.length +
                         " cases; scroll it to its end for more.";
  }

  function isDefaultView() {
    return FILTERS.every(function (n) { return !controls[n].value; }) && !search.value.trim();
  }

  function apply() {
    var v = {};
    FILTERS.forEach(function (name) { v[name] = controls[name].value; });
    var impl = controls.impl.selectedIndex - 1, matches = searcher(search.value);
    matching = rows.filter(function (row) {
      var ok = outcomeMatches(row.results, v.outcome, impl) &&
               (!v.format || row.format === v.format) &&
               (!v.operation || row.operation === v.operation) &&
               (!v.level || row.level === v.level) && (!v.ground || row.ground === v.ground) &&
               matches(row);
      if (row.details) setHidden(row.details, !ok);
      return ok;
    });
    limit = CHUNK;
    list();
    shown.textContent = matching.length + " of " + rows.length + " cases shown";
    noMatch.hidden = matching.length > 0 || isDefaultView();
  }

  function listMore() {
    if (limit >= matching.length) return;
    limit += CHUNK;
    list();
    markWide(matrixBox.parentElement);
  }

  // Marks each box under `root` that scrolls sideways (class "wide": the stylesheet adds a hint),
  // reading every width before writing any class, so that the page is laid out once.
  function markWide(root) {
    var boxes = root.querySelectorAll(".scroll");
    var wide = Array.prototype.map.call(boxes, function (box) {
      return box.scrollWidth > box.clientWidth + 1;
    });
    Array.prototype.forEach.call(boxes, function (box, i) { box.classList.toggle("wide", wide[i]); });
  }

  function readAddress() {
    var params = new URLSearchParams(location.search);
    FILTERS.forEach(function (name) {
      var value = params.get(name), select = controls[name];
      if (value !== null && Array.prototype.some.call(select.options, function (o) {
            return o.value === value;
          })) {
        select.value = value;
      }
    });
    if (params.has("q")) search.value = params.get("q");
  }

  function writeAddress() {
    var params = new URLSearchParams();
    FILTERS.forEach(function (name) {
      if (controls[name].value) params.set(name, controls[name].value);
    });
    if (search.value.trim()) params.set("q", search.value);
    var query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
  }

  function changed() {
    apply();
    writeAddress();
  }

  // Opens what hides an anchor's target (a closed <details>, a row the filters hid), so that a
  // click on a matrix cell always lands on its details.
  function reveal(id) {
    var target = id && document.getElementById(id);
    for (var e = target; e; e = e.parentElement) {
      if (e.tagName === "DETAILS") e.open = true;
      e.hidden = false;
    }
    return target;
  }

  listNext.addEventListener("click", listMore);
  matrixBox.addEventListener("scroll", function () {
    if (matrixBox.scrollTop + matrixBox.clientHeight > matrixBox.scrollHeight - 300) listMore();
  }, {passive: true});
  // An opened <details> may hold wide tables; a resized window changes which boxes are too wide.
  document.addEventListener("toggle", function (event) {
    if (event.target.open) markWide(event.target);
  }, true);
  var resizing = false;
  window.addEventListener("resize", function () {
    if (resizing) return;
    resizing = true;
    requestAnimationFrame(function () {
      resizing = false;
      markWide(document);
    });
  });
  FILTERS.forEach(function (name) { controls[name].addEventListener("change", changed); });
  search.addEventListener("input", changed);
  if (showAll) {
    showAll.addEventListener("click", function () {
      controls.outcome.value = "all";
      changed();
    });
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) reveal(link.getAttribute("href").slice(1));
  });
  // The page's ids are plain ASCII (render_html_internal.h), so a fragment needs no decoding.
  function revealFragment() {
    var target = reveal(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }
  window.addEventListener("hashchange", revealFragment);
  readAddress();
  apply();
  // On a narrow screen the filters fold away too, unless the address sets one, so that the first
  // failure is on the first screen.
  if (window.matchMedia(NARROW).matches && isDefaultView()) {
    document.getElementById("filter-box").open = false;
  }
  // The page opens on the first failure the filters show, with its evidence, unless the address
  // names another place.
  if (!location.hash && !document.querySelector("#failure-list > details[open]:not([hidden])")) {
    var first = document.querySelector("#failure-list > details:not([hidden])");
    if (first) first.open = true;
  }
  revealFragment();
  markWide(document);
})();
