// The board: a grid of buttons, one a square (data-square="f5", an aria-label that says what
// is on it), each drawing its disc and marks in SVG; values and book values on the squares.

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";

/** The name of the square at row `r`, column `c` (from 0): `f5`. */
export function squareName(r, c) {
  return FILES[c] + String(r + 1);
}

/** A score as shown: `+2`, `-4`, `0`. */
export function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  /** `root`: the board's element; `onPlay(square)`: a click on a square. */
  constructor(root, files, ranks, onPlay) {
    this.root = root;
    this.files = files;
    this.ranks = ranks;
    this.onPlay = onPlay;
    this.size = 0;
    this.squares = new Map();
    this.shown = null; // the node drawn last, to animate only a move forward
  }

  build(size) {
    this.size = size;
    this.root.replaceChildren();
    this.squares.clear();
    this.root.style.setProperty("--size", size);
    this.files.style.setProperty("--size", size);
    this.ranks.style.setProperty("--size", size);
    this.files.replaceChildren(...Array.from({ length: size }, (_, c) => span(FILES[c])));
    this.ranks.replaceChildren(...Array.from({ length: size }, (_, r) => span(String(r + 1))));
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const name = squareName(r, c);
        const button = document.createElement("button");
        button.type = "button";
        button.className = "sq";
        button.dataset.square = name;
        const svg = el("svg", { viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" });
        el("circle", { class: "disc", cx: 50, cy: 50, r: 41 }, svg);
        el("circle", { class: "dot", cx: 50, cy: 50, r: 7 }, svg);
        el("circle", { class: "last", cx: 50, cy: 50, r: 9 }, svg);
        button.appendChild(svg);
        const value = document.createElement("span");
        value.className = "value";
        const book = document.createElement("span");
        book.className = "book";
        button.append(value, book);
        button.addEventListener("click", () => this.onPlay(name));
        this.root.appendChild(button);
        this.squares.set(name, { button, disc: svg.firstChild, value, book });
      }
    }
  }

  /** Draws `state` with `values` (a values message for this node, or null). */
  draw(state, values, showValues) {
    if (state.size !== this.size) this.build(state.size);
    const legal = new Set(state.legal);
    const flipped = new Set(state.flipped);
    // A move forward (the new node is a child of the one drawn) animates its flips.
    const forward = this.shown !== null && state.nodes[state.node] && state.nodes[state.node].parent !== null &&
      (state.nodes[state.node].parent === this.shown ||
       state.nodes[state.nodes[state.node].parent].parent === this.shown);
    this.shown = state.node;
    const rows = new Map();
    if (showValues && values && values.node === state.node) {
      for (const row of values.rows) rows.set(row.move, row);
    }
    const book = new Map(state.book.map((b) => [b.move, b.value]));
    const best = showValues && values && values.node === state.node && values.rows.length ? values.rows[0].score : null;
    for (let r = 0; r < state.size; r++) {
      for (let c = 0; c < state.size; c++) {
        const name = squareName(r, c);
        const sq = this.squares.get(name);
        const mark = state.squares[r * state.size + c];
        const color = mark === "X" ? "black" : mark === "O" ? "white" : null;
        const isLegal = legal.has(name);
        const isLast = state.last === name;
        sq.disc.setAttribute("class", "disc" + (color ? " " + color : "") +
          (forward && (flipped.has(name) || isLast) ? " flipped" : ""));
        if (forward && (flipped.has(name) || isLast)) {
          // Restart the animation on the same element.
          sq.disc.style.animation = "none";
          void sq.disc.getBoundingClientRect();
          sq.disc.style.animation = "";
        }
        const row = rows.get(name);
        const words = [name];
        words.push(color ? color + " disc" : "empty");
        if (isLegal) words.push("legal move");
        if (isLast) words.push("last move");
        if (flipped.has(name)) words.push("just flipped");
        const classes = ["sq"];
        if (isLegal) classes.push("legal");
        if (isLast) classes.push("lastmove");
        if (row) {
          sq.button.dataset.value = String(row.score);
          sq.value.textContent = row.bound === "wld" ? wld(row.score) : signed(row.score);
          words.push("value " + sq.value.textContent + (row.bound === "exact" ? " exact" : ""));
          classes.push("valued");
          if (values.preview) classes.push("preview");
          if (row.bound !== "estimate") classes.push("proven");
          if (row.score === best) classes.push("best");
        } else {
          delete sq.button.dataset.value;
          sq.value.textContent = "";
        }
        if (showValues && isLegal && book.has(name)) {
          const v = book.get(name);
          sq.button.dataset.book = String(v);
          sq.book.textContent = "book " + signed(v);
          words.push("book value " + signed(v));
        } else {
          delete sq.button.dataset.book;
          sq.book.textContent = "";
        }
        sq.button.className = classes.join(" ");
        sq.button.setAttribute("aria-label", words.join(", "));
      }
    }
  }
}

function wld(score) {
  return score > 0 ? "win" : score < 0 ? "loss" : "draw";
}

function span(text) {
  const s = document.createElement("span");
  s.textContent = text;
  return s;
}

/** The position of `state` as a standalone SVG document (for download). */
export function boardSvg(state) {
  const n = state.size;
  const cell = 50;
  const margin = 24;
  const side = n * cell + 2 * margin;
  const out = [];
  out.push(`<svg xmlns="${SVG}" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">`);
  out.push(`<rect width="${side}" height="${side}" fill="#2b2b2b"/>`);
  out.push(`<rect x="${margin}" y="${margin}" width="${n * cell}" height="${n * cell}" fill="#1e7b45"/>`);
  for (let i = 0; i <= n; i++) {
    const p = margin + i * cell;
    out.push(`<line x1="${margin}" y1="${p}" x2="${margin + n * cell}" y2="${p}" stroke="#0d3d22" stroke-width="1.5"/>`);
    out.push(`<line x1="${p}" y1="${margin}" x2="${p}" y2="${margin + n * cell}" stroke="#0d3d22" stroke-width="1.5"/>`);
  }
  for (let i = 0; i < n; i++) {
    const mid = margin + i * cell + cell / 2;
    out.push(`<text x="${mid}" y="${margin - 8}" fill="#ddd" font-family="sans-serif" font-size="14" text-anchor="middle">${FILES[i]}</text>`);
    out.push(`<text x="${margin / 2}" y="${mid + 5}" fill="#ddd" font-family="sans-serif" font-size="14" text-anchor="middle">${i + 1}</text>`);
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const mark = state.squares[r * n + c];
      if (mark === "-") continue;
      const fill = mark === "X" ? "#111" : "#f4f4f4";
      out.push(`<circle cx="${margin + c * cell + cell / 2}" cy="${margin + r * cell + cell / 2}" r="${cell * 0.41}" fill="${fill}" stroke="#000" stroke-width="1"/>`);
    }
  }
  out.push(`</svg>`);
  return out.join("\n");
}
