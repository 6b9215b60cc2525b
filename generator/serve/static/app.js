"use strict";
// pnp serve's page: it asks the server for the state of one way of seeing a game (the
// settings in its address), listens for changes (server-sent events) and redraws only the
// pieces and sheets that changed. Everything the page holds is in its address, so a reload
// keeps it. Text from the game is only ever set as text, never parsed as HTML.

const SERVER_KEYS = ["game", "lang", "paper", "duplex", "layout", "ink"];
const SVG_NS = "http://www.w3.org/2000/svg";
const MAX_SIDE_PX = 760; // a large piece (a board) is shown no wider than this
const SIDE_NAMES = { face: "front", back: "back" };

let current = null; // the last state the server sent
let source = null; // the event stream
let streamQuery = null;

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function svg(tag, attributes) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function params() {
  return new URLSearchParams(location.search);
}

function setParams(changes) {
  const p = params();
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === undefined) p.delete(name);
    else p.set(name, value);
  }
  history.replaceState(null, "", "?" + p.toString());
}

function serverQuery() {
  const p = params();
  const q = new URLSearchParams();
  for (const key of SERVER_KEYS) if (p.has(key)) q.set(key, p.get(key));
  return q.toString();
}

function where(file, line) {
  if (!file) return "";
  return line ? `${file}:${line}` : file;
}

// --- the stream ------------------------------------------------------------------------

function connect() {
  const query = serverQuery();
  if (source && query === streamQuery) return;
  if (source) source.close();
  streamQuery = query;
  setLive("connecting", "connecting…");
  source = new EventSource("/api/events" + (query ? "?" + query : ""));
  source.addEventListener("state", (event) => apply(JSON.parse(event.data)));
  source.addEventListener("busy", () => setLive("busy", "updating…"));
  source.onerror = () => {
    setLive("offline", "not connected: is pnp serve still running?");
    if (source.readyState === EventSource.CLOSED) explainRefusal(query);
  };
}

// A browser opens at most six connections to one server, and each page's stream holds one:
// a page that is left, or hidden for a while, lets its stream go and takes it up again when
// it is shown.
const HIDDEN_MS = 10000;
let hiddenTimer = null;

function disconnect() {
  if (source) source.close();
  source = null;
  streamQuery = null;
}

window.addEventListener("pagehide", disconnect);
window.addEventListener("pageshow", (event) => {
  if (event.persisted) connect();
});
document.addEventListener("visibilitychange", () => {
  clearTimeout(hiddenTimer);
  if (document.hidden) hiddenTimer = setTimeout(disconnect, HIDDEN_MS);
  else if (!source) connect();
});

async function explainRefusal(query) {
  try {
    const answer = await fetch("/api/state?" + query);
    if (answer.status === 400) {
      const { error } = await answer.json();
      showErrors([{ file: "", line: null, message: `the address asks for ${error}` }], null);
    }
  } catch (_) {
    // the server is gone: the status says so
  }
}

function setLive(kind, text) {
  const dot = $("live");
  dot.className = "dot " + kind;
  dot.setAttribute("aria-label", text);
  if (text) $("status").textContent = text;
}

function apply(state) {
  current = state;
  setParams(state.settings);
  streamQuery = serverQuery();
  syncControls(state);
  showErrors(state.errors, state);
  redraw();
  const took = state.timings.total ? ` in ${Math.round(state.timings.total * 1000)} ms` : "";
  const problems = state.errors.length;
  setLive(
    problems ? "error" : "live",
    problems ? `${problems} error(s) · ${state.at}` : `updated ${state.at}${took}`,
  );
}

// --- the controls ----------------------------------------------------------------------

function fillSelect(select, options, value) {
  const wanted = JSON.stringify(options);
  if (select.dataset.options !== wanted) {
    select.replaceChildren(
      ...options.map(([optionValue, label]) => {
        const option = el("option", null, label);
        option.value = optionValue;
        return option;
      }),
    );
    select.dataset.options = wanted;
  }
  select.value = value;
}

function syncControls(state) {
  const s = state.settings;
  fillSelect($("game"), state.games.map((g) => [g, g]), s.game);
  $("game-field").hidden = state.games.length < 2;
  const languages = state.languages.map((code, i) => [i ? code : "", i ? code : `${code} (source)`]);
  fillSelect($("lang"), languages.length ? languages : [["", "source"]], s.lang);
  $("lang").disabled = languages.length < 2;
  const paper = state.view ? state.view.paper : "";
  fillSelect($("paper"), [["", `game's own${paper && !s.paper ? ` (${paper})` : ""}`],
    ...state.papers.map((p) => [p, p])], s.paper);
  $("printing").value = s.layout === "fold" ? "fold" : s.duplex;
  $("ink").checked = s.ink === "1";
  const title = state.view ? state.view.title : s.game;
  $("title").textContent = title;
  $("title").title = title;
  document.title = `${title} · pnp serve`;
}

function wireControls() {
  const server = (changes) => {
    setParams(changes);
    connect();
  };
  $("game").addEventListener("change", (e) => server({ game: e.target.value, lang: "" }));
  $("lang").addEventListener("change", (e) => server({ lang: e.target.value }));
  $("paper").addEventListener("change", (e) => server({ paper: e.target.value }));
  $("printing").addEventListener("change", (e) => {
    const v = e.target.value;
    server(v === "fold" ? { layout: "fold" } : { layout: "duplex", duplex: v });
  });
  $("ink").addEventListener("change", (e) => server({ ink: e.target.checked ? "1" : "0" }));
  for (const button of document.querySelectorAll(".tabs button")) {
    button.addEventListener("click", () => {
      setParams({ view: button.dataset.view === "pieces" ? null : button.dataset.view });
      redraw();
    });
  }
  const local = (name, read) => (e) => {
    setParams({ [name]: read(e.target) });
    redraw();
  };
  $("search").addEventListener("input", local("q", (t) => t.value || null));
  $("only-findings").addEventListener("change", local("findings", (t) => (t.checked ? "1" : null)));
  $("show-bleed").addEventListener("change", local("bleed", (t) => (t.checked ? "1" : null)));
  $("zoom").addEventListener("input", local("zoom", (t) => t.value));
  const p = params();
  $("search").value = p.get("q") || "";
  $("only-findings").checked = p.get("findings") === "1";
  $("show-bleed").checked = p.get("bleed") === "1";
  if (p.get("zoom")) $("zoom").value = p.get("zoom");
}

// --- errors and the check --------------------------------------------------------------

function showErrors(errors, state) {
  const box = $("errors");
  box.hidden = !errors.length;
  if (!errors.length) return box.replaceChildren();
  const head = el("h2", null, `${errors.length} ${errors.length === 1 ? "error" : "errors"} in the specs`);
  let note = "Nothing could be rendered yet: fix it and save, the page follows.";
  if (state && state.stale) note = `Showing the last good render. Fix it and save: the page follows.`;
  else if (state && state.partial) note = "Showing what could be rendered.";
  const list = el("ul");
  for (const e of errors) {
    const item = el("li");
    const place = where(e.file, e.line);
    if (place) item.append(el("code", "where", place), " ");
    item.append(el("span", null, e.message));
    list.append(item);
  }
  box.replaceChildren(head, el("p", null, note), list);
}

function listSection(title, items, render) {
  if (!items || !items.length) return null;
  const section = el("details", "findings-group");
  section.open = items.length <= 6;
  section.append(el("summary", null, `${title} (${items.length})`));
  const list = el("ul");
  for (const item of items) list.append(render(item));
  section.append(list);
  return section;
}

function findingItem(finding) {
  const item = el("li", "finding " + (finding.kind || ""));
  const place = where(finding.file, finding.line);
  if (place) item.append(el("code", "where", place), " ");
  item.append(el("span", null, finding.message));
  return item;
}

// The verdict is the state's, not the view's: while there are errors the view shown is the
// last good one, and its own check would pass beside them.
function showCheck(view, state) {
  const box = $("check");
  const check = view.check;
  const passed = Boolean(state.passed);
  const verdict = el("p", "verdict " + (passed ? "passed" : "failed"));
  verdict.textContent = passed ? "✓ The check passes" : "✗ The check fails";
  const parts = [verdict];
  if (check.printing) {
    const p = check.printing;
    parts.push(el("p", "printing", `${p.sheets} sheets of paper (${p.pages} pages), ${p.sides}`));
  }
  const text = (s) => el("li", "finding", s);
  const translation = check.translation;
  const groups = [
    listSection("Prints wrong", check.printing ? check.printing.problems : [], text),
    listSection("Deck recipes", check.recipes, text),
    listSection("Not drawn by the art", check.warnings, findingItem),
    listSection("Other findings", check.other, findingItem),
    translation &&
      listSection(
        `Not translated into ${translation.language}: print in the source language`,
        translation.missing,
        (m) => {
          const item = el("li", "finding");
          item.append(el("code", "where", m.where), " ", el("span", null, m.text));
          return item;
        },
      ),
    listSection("Rulebook counts no spec covers yet", check.pending, text),
  ];
  box.replaceChildren(...parts, ...groups.filter(Boolean));
}

// --- pieces ----------------------------------------------------------------------------

function zoom() {
  return parseFloat(params().get("zoom") || $("zoom").value) || 2.5;
}

function errorsByPlace() {
  const found = new Map();
  for (const e of current.errors) {
    if (!e.file || !e.line) continue;
    const key = where(e.file, e.line);
    found.set(key, [...(found.get(key) || []), e]);
  }
  return found;
}

function sideFigure(piece, side, scaleWanted, bleed) {
  const size = piece.size;
  const b = size.bleed;
  const full = { w: size.w + 2 * b, h: size.h + 2 * b };
  const box = bleed ? full : { w: size.w, h: size.h };
  const scale = Math.min(scaleWanted, MAX_SIDE_PX / box.w);
  const origin = bleed ? -b : 0;
  const figure = el("figure", "side");
  const art = el("div", "art");
  art.style.width = `${box.w * scale}px`;
  art.style.height = `${box.h * scale}px`;
  const img = el("img");
  img.src = `/picture/${side.picture}.png`;
  img.alt = `${SIDE_NAMES[side.side] || side.side} of ${piece.label}`;
  img.width = Math.round(full.w * scale);
  img.height = Math.round(full.h * scale);
  img.style.left = `${(-b - origin) * scale}px`;
  img.style.top = `${(-b - origin) * scale}px`;
  img.dataset.side = side.side;
  art.append(img);
  const overlay = svg("svg", { viewBox: `${origin} ${origin} ${box.w} ${box.h}`, class: "overlay" });
  if (piece.outline) {
    art.classList.toggle("shaped", !piece.outline.startsWith("M0 0H"));
    const outside = `M${-b - 1} ${-b - 1}h${full.w + 2}v${full.h + 2}h${-full.w - 2}Z`;
    overlay.append(svg("path", { d: `${outside} ${piece.outline}`, class: "outside" }));
    overlay.append(svg("path", { d: piece.outline, class: "cut" }));
  }
  const tags = [];
  for (const finding of piece.findings) {
    if (!finding.box || finding.side !== side.side) continue;
    const [x, y, w, h] = finding.box;
    overlay.append(svg("rect", { x, y, width: w, height: h, class: "overflow-box" }));
    const tag = el("span", "overflow-tag", finding.message.replace(/.*: (.*?) at .*/, "$1 missing"));
    tag.style.left = `${Math.max(0, x - origin) * scale}px`;
    const above = y - origin > 4; // room above the box: the tag sits on its top edge
    tag.style.top = `${(above ? y - origin : y + h - origin) * scale}px`;
    if (above) tag.classList.add("above");
    tags.push(tag);
  }
  art.append(overlay);
  figure.append(art, ...tags, el("figcaption", null, SIDE_NAMES[side.side] || side.side.replace("-", " ")));
  return figure;
}

function pieceElement(component, piece, errors) {
  const scale = zoom();
  const bleed = params().get("bleed") === "1";
  const findings = [...piece.findings, ...errors.map((e) => ({ ...e, kind: "error" }))];
  const node = el("article", "piece" + (findings.length ? " has-findings" : ""));
  node.dataset.component = component.id;
  node.dataset.name = piece.name;
  const sides = el("div", "sides");
  if (piece.size) for (const side of piece.sides) sides.append(sideFigure(piece, side, scale, bleed));
  if (!piece.sides.length) sides.append(el("div", "not-printed", "not printed"));
  const count = el("span", "count", `×${piece.copies}`);
  count.title = `${piece.copies} printed`;
  const head = el("div", "head");
  head.append(el("h3", "label", piece.label), count);
  const meta = el("div", "meta");
  if (piece.name !== piece.label) meta.append(el("span", "name", piece.name));
  const source = el("code", "source", where(piece.file, piece.line));
  source.title = "where this piece comes from";
  meta.append(source);
  node.append(sides, head, meta);
  if (findings.length) {
    const list = el("ul", "findings");
    for (const finding of findings) list.append(findingItem(finding));
    node.append(list);
  }
  node.dataset.text = [piece.label, piece.name, where(piece.file, piece.line),
    ...findings.map((f) => f.message)].join(" ").toLowerCase();
  return node;
}

function swapWhenLoaded(old, fresh) {
  old.pending = fresh;
  const images = [...fresh.querySelectorAll("img")];
  Promise.all(images.map((img) => img.decode().catch(() => null))).then(() => {
    if (old.isConnected && old.pending === fresh) old.replaceWith(fresh);
  });
}

function componentHeader(section, component) {
  const head = el("header");
  const title = el("h2", null, component.title);
  const about = el("span", "about", `${component.kind} · ${component.copies} printed · `);
  about.append(el("code", null, component.file));
  head.append(title, about);
  const parts = [head];
  const agreed = component.counts.filter((row) => row.expected !== null && row.ok);
  if (agreed.length) {
    const ok = el("span", "count-ok",
      agreed.length === 1 ? `✓ ${agreed[0].printed} as in the rulebook`
        : `✓ ${agreed.length} rulebook counts agree`);
    ok.title = agreed.map((row) => `${row.key}: ${row.printed}`).join("\n");
    head.append(ok);
  }
  for (const row of component.counts) {
    if (row.expected === null || row.ok) continue;
    const banner = el("div", "banner");
    banner.append(
      el("strong", null, `${row.key}: the rulebook counts ${row.expected}, the specs print ${row.printed}`),
      " ",
      el("code", "where", where(component.game_file, row.line)),
    );
    parts.push(banner);
  }
  if (component.findings.length) {
    const list = el("ul", "findings");
    for (const f of component.findings) list.append(findingItem(f));
    parts.push(list);
  }
  section.querySelector(".component-head").replaceChildren(...parts);
}

function showPieces(view) {
  const root = $("pieces-view");
  const old = new Map([...root.children].map((s) => [s.dataset.id, s]));
  const errors = errorsByPlace();
  const settings = [zoom(), params().get("bleed")];
  const sections = view.components.map((component) => {
    let section = old.get(component.id);
    if (!section) {
      section = el("section", "component");
      section.dataset.id = component.id;
      section.id = `component-${component.id}`;
      section.append(el("div", "component-head"), el("div", "grid"));
    }
    const headSig = JSON.stringify([component.title, component.counts, component.findings,
      component.copies, component.file]);
    if (section.dataset.sig !== headSig) {
      componentHeader(section, component);
      section.dataset.sig = headSig;
    }
    const grid = section.querySelector(".grid");
    const before = new Map([...grid.children].map((p) => [p.dataset.name, p]));
    const pieces = component.pieces.map((piece) => {
      const mine = errors.get(where(piece.file, piece.line)) || [];
      const sig = JSON.stringify([piece, mine, settings]);
      const existing = before.get(piece.name);
      if (existing && (existing.dataset.sig === sig || (existing.pending && existing.pending.dataset.sig === sig))) {
        return existing;
      }
      const fresh = pieceElement(component, piece, mine);
      fresh.dataset.sig = sig;
      if (!existing) return fresh;
      swapWhenLoaded(existing, fresh);
      return existing;
    });
    if (pieces.some((p, i) => grid.children[i] !== p) || grid.children.length !== pieces.length) {
      grid.replaceChildren(...pieces);
    }
    return section;
  });
  root.replaceChildren(...sections);
}

// --- sheets ----------------------------------------------------------------------------

function showSheets(view) {
  const root = $("sheets-view");
  const old = new Map([...root.children].map((s) => [s.dataset.sig, s]));
  const [pw, ph] = view.paper_mm;
  const scale = zoom();
  const sheets = view.sheets.map((sheet) => {
    const sig = JSON.stringify([sheet, scale]);
    if (old.has(sig)) return old.get(sig);
    const node = el("section", "sheet");
    node.dataset.sig = sig;
    const numbers = sheet.pages.map((p) => p.number);
    const title = el("h3", null, `Sheet ${sheet.sheet}`);
    title.append(el("small", null, ` page${numbers.length > 1 ? "s" : ""} ${numbers.join("–")}`));
    const pages = el("div", "pages");
    for (const [index, page] of sheet.pages.entries()) {
      const figure = el("figure", "page");
      const frame = el("div", "paper");
      frame.style.width = `${pw * scale}px`;
      frame.style.aspectRatio = `${pw} / ${ph}`;
      if (page.picture) {
        const img = el("img");
        img.loading = "lazy";
        img.src = `/picture/${page.picture}.png`;
        img.alt = `page ${page.number}`;
        img.width = Math.round(pw * scale);
        img.height = Math.round(ph * scale);
        frame.append(img);
      } else {
        frame.append(el("span", "blank", "blank"));
      }
      const side = index ? "back" : "front";
      figure.append(frame, el("figcaption", null, `page ${page.number} · ${side}${page.title ? " · " + page.title : ""}`));
      pages.append(figure);
    }
    node.append(title, pages);
    return node;
  });
  root.replaceChildren(...sheets);
}

// --- filters and the whole page --------------------------------------------------------

function hiddenComponents() {
  return new Set((params().get("hide") || "").split(",").filter(Boolean));
}

function showComponentList(view) {
  const hidden = hiddenComponents();
  const list = $("components");
  const items = view.components.map((component) => {
    const item = el("li");
    const label = el("label", "toggle");
    const box = el("input");
    box.type = "checkbox";
    box.checked = !hidden.has(component.id);
    box.addEventListener("change", () => {
      const now = hiddenComponents();
      if (box.checked) now.delete(component.id);
      else now.add(component.id);
      setParams({ hide: now.size ? [...now].join(",") : null });
      applyFilters();
    });
    const bad = component.pieces.some((p) => p.findings.length) || component.findings.length ||
      component.counts.some((r) => !r.ok);
    label.append(box, " ", el("span", null, component.title), " ",
      el("span", "tally" + (bad ? " bad" : ""), String(component.pieces.length)));
    item.append(label);
    return item;
  });
  list.replaceChildren(...items);
}

function applyFilters() {
  const p = params();
  const text = (p.get("q") || "").toLowerCase().trim();
  const onlyFindings = p.get("findings") === "1";
  const hidden = hiddenComponents();
  let shown = 0;
  let total = 0;
  for (const section of $("pieces-view").children) {
    let visible = 0;
    for (const piece of section.querySelector(".grid").children) {
      total += 1;
      const show = !hidden.has(section.dataset.id) &&
        (!text || piece.dataset.text.includes(text)) &&
        (!onlyFindings || piece.classList.contains("has-findings"));
      piece.hidden = !show;
      if (show) visible += 1;
    }
    section.hidden = hidden.has(section.dataset.id) || (visible === 0 && (text || onlyFindings));
    shown += visible;
  }
  $("shown").textContent = `${shown} of ${total} pieces shown`;
}

function redraw() {
  const view = current ? current.view : null;
  const sheets = params().get("view") === "sheets";
  document.body.classList.toggle("bleed", params().get("bleed") === "1");
  $("tab-pieces").setAttribute("aria-pressed", String(!sheets));
  $("tab-sheets").setAttribute("aria-pressed", String(sheets));
  $("pieces-view").hidden = sheets;
  $("sheets-view").hidden = !sheets;
  $("waiting").hidden = Boolean(view) || Boolean(current && current.errors.length);
  $("check").hidden = !view;
  if (!view) {
    $("pieces-view").replaceChildren();
    $("sheets-view").replaceChildren();
    $("components").replaceChildren();
    return;
  }
  showCheck(view, current);
  showComponentList(view);
  showPieces(view);
  if (sheets) showSheets(view);
  applyFilters();
}

wireControls();
connect();
