// Games in and out: a file's games listed to pick from (read by the server in memory, from
// the request), the transcript to the clipboard, the game as GGF and the board as SVG.

/** Saves `text` as a file named `name`. */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copies `text` to the clipboard; false when the browser refuses. */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Sends `file` to the server and lists its games in `root`; `onPick(text)` opens one. */
export async function openFile(file, root, maxBytes, onPick, say) {
  root.replaceChildren();
  if (file.size > maxBytes) {
    say(`${file.name}: ${file.size} bytes, more than the ${maxBytes} this server reads`, true);
    return;
  }
  say(`reading ${file.name}…`);
  let reply;
  try {
    const response = await fetch("/api/games?name=" + encodeURIComponent(file.name), {
      method: "POST",
      body: await file.arrayBuffer(),
      headers: { "Content-Type": "application/octet-stream" },
    });
    reply = await response.json().catch(() => ({ error: `${file.name}: the server answered ${response.status}` }));
  } catch (e) {
    say(`${file.name}: ${e}`, true);
    return;
  }
  if (reply.error) {
    say(reply.error, true);
    return;
  }
  const shown = reply.games.length;
  let text = `${file.name}: ${reply.total} game${reply.total === 1 ? "" : "s"}`;
  if (shown < reply.total - reply.errors.length) text += `, the first ${shown} listed`;
  if (reply.errors.length) text += `; ${reply.errors.length} could not be read (first: ${reply.errors[0]})`;
  say(text, reply.errors.length > 0 && shown === 0);
  if (shown === 1) {
    onPick(reply.games[0].text);
    return;
  }
  const list = document.createElement("ol");
  for (const game of reply.games) {
    const item = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "game-pick";
    b.textContent = `${game.index}. ${game.black} – ${game.white}: ${game.result}, ${game.moves} moves`;
    b.addEventListener("click", () => onPick(game.text));
    item.appendChild(b);
    list.appendChild(item);
  }
  root.appendChild(list);
}
