// The move list: the main line with its variations in brackets, as a score sheet writes them.
// Each move is a button (data-node) that goes to it; a review's losses are marked on it.

function moveNumber(node) {
  return Math.ceil(node.ply / 2);
}

function moveButton(state, node, onGoto) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "move";
  b.dataset.node = String(node.id);
  const name = node.move === "PA" ? "pass" : node.move;
  b.textContent = name;
  let label = `move ${node.ply}, ${node.color} ${name}`;
  if (node.loss !== null && node.loss !== undefined) {
    b.dataset.loss = String(node.loss);
    if (node.loss > 0) {
      const loss = document.createElement("sup");
      loss.className = "loss";
      loss.textContent = "−" + node.loss;
      b.appendChild(loss);
    }
    label += node.loss > 0 ? `, lost ${node.loss} discs (best ${node.best})` : ", best";
    b.title = node.loss > 0 ? `lost ${node.loss} discs; best was ${node.best}` : "a best move";
    if (node.blunder) {
      b.classList.add("blunder");
      label += ", blunder";
    } else if (node.loss > 0) {
      b.classList.add("inaccuracy");
    }
  }
  if (node.iago) {
    const how = node.iago.depth === "book" ? "from the book" : node.iago.depth === "forced" ? "the only move" :
      `at depth ${node.iago.depth} in ${(node.iago.time_ms / 1000).toFixed(2)} s`;
    b.title = (b.title ? b.title + "; " : "") + `Iago: ${node.iago.score > 0 ? "+" : ""}${node.iago.score} ${how}`;
  }
  if (node.id === state.node) {
    b.classList.add("current");
    b.setAttribute("aria-current", "step");
  }
  b.setAttribute("aria-label", label);
  b.addEventListener("click", () => onGoto(node.id));
  return b;
}

/** Writes the line that starts with node `id` (and its variations) into `out`. */
function writeLine(state, id, out, onGoto, first) {
  const nodes = state.nodes;
  let at = id;
  let needNumber = first;
  while (at !== undefined) {
    const node = nodes[at];
    if (node.color === "black") {
      out.appendChild(number(`${moveNumber(node)}.`));
    } else if (needNumber) {
      out.appendChild(number(`${moveNumber(node)}…`));
    }
    needNumber = false;
    out.appendChild(moveButton(state, node, onGoto));
    const siblings = nodes[node.parent].children;
    if (siblings[0] === at && siblings.length > 1) {
      for (const other of siblings.slice(1)) {
        const variation = document.createElement("span");
        variation.className = "variation";
        writeLine(state, other, variation, onGoto, true);
        out.appendChild(variation);
      }
      needNumber = true;
    }
    at = node.children[0];
  }
}

function number(text) {
  const s = document.createElement("span");
  s.className = "num";
  s.textContent = text;
  return s;
}

/** Draws the move list of `state` into `root`. */
export function drawMoves(root, state, onGoto) {
  const out = document.createElement("div");
  out.className = "line";
  const start = state.nodes[0];
  const startButton = document.createElement("button");
  startButton.type = "button";
  startButton.className = "move start" + (state.node === 0 ? " current" : "");
  startButton.dataset.node = "0";
  startButton.textContent = "start";
  startButton.setAttribute("aria-label", "the start position");
  if (state.node === 0) startButton.setAttribute("aria-current", "step");
  startButton.addEventListener("click", () => onGoto(0));
  out.appendChild(startButton);
  if (start.children.length) writeLine(state, start.children[0], out, onGoto, true);
  root.replaceChildren(out);
  const current = root.querySelector(".current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}
