// The evaluation graph over the line shown, from Black's point of view: the values known
// (Iago's searches, shown values, solves, a review), blunders marked, the move shown as a
// vertical line. A click goes to the move under it.

const SVG = "http://www.w3.org/2000/svg";
const W = 600;
const H = 160;
const PAD = 18;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

export class Graph {
  constructor(svg, onGoto) {
    this.svg = svg;
    this.onGoto = onGoto;
    this.line = [];
    svg.addEventListener("click", (event) => {
      if (this.line.length === 0) return;
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * W;
      const i = Math.round(((x - PAD) / (W - 2 * PAD)) * Math.max(1, this.line.length - 1));
      const at = Math.min(this.line.length - 1, Math.max(0, i));
      this.onGoto(this.line[at]);
    });
  }

  draw(state) {
    const svg = this.svg;
    svg.replaceChildren();
    this.line = state.line;
    const n = Math.max(1, state.line.length - 1);
    const points = state.line
      .map((id, i) => ({ id, i, node: state.nodes[id] }))
      .filter((p) => p.node.eval !== null && p.node.eval !== undefined);
    const extreme = points.reduce((m, p) => Math.max(m, Math.abs(p.node.eval)), 0);
    const range = Math.min(64, Math.max(8, Math.ceil(extreme / 8) * 8));
    const x = (i) => PAD + (i / n) * (W - 2 * PAD);
    const y = (v) => H / 2 - (v / range) * (H / 2 - PAD);
    el("rect", { x: 0, y: 0, width: W, height: H, class: "graph-bg" }, svg);
    el("line", { x1: PAD, y1: H / 2, x2: W - PAD, y2: H / 2, class: "graph-zero" }, svg);
    const label = (text, yy) => {
      const t = el("text", { x: 2, y: yy, class: "graph-label" }, svg);
      t.textContent = text;
    };
    label("+" + range, PAD + 4);
    label("-" + range, H - PAD + 4);
    const current = state.line.indexOf(state.node);
    if (current >= 0) {
      el("line", { x1: x(current), y1: 4, x2: x(current), y2: H - 4, class: "graph-current" }, svg);
    }
    if (points.length > 1) {
      const path = points.map((p, k) => `${k ? "L" : "M"}${x(p.i).toFixed(1)},${y(p.node.eval).toFixed(1)}`).join(" ");
      const area = `${path} L${x(points[points.length - 1].i).toFixed(1)},${H / 2} L${x(points[0].i).toFixed(1)},${H / 2} Z`;
      el("path", { d: area, class: "graph-area" }, svg);
      el("path", { d: path, class: "graph-line" }, svg);
    }
    for (const p of points) {
      const c = el("circle", {
        cx: x(p.i).toFixed(1),
        cy: y(p.node.eval).toFixed(1),
        r: p.node.blunder ? 5 : 2.5,
        class: p.node.blunder ? "graph-blunder" : p.node.exact ? "graph-exact" : "graph-point",
        "data-node": p.id,
      }, svg);
      const title = el("title", {}, c);
      const mv = p.node.move ? `${p.node.ply}. ${p.node.move === "PA" ? "pass" : p.node.move}: ` : "start: ";
      title.textContent = mv + (p.node.eval > 0 ? "+" : "") + p.node.eval + (p.node.exact ? " (exact)" : "") +
        (p.node.blunder ? `, blunder (−${p.node.loss})` : "");
    }
  }
}
