// Language switch that keeps the reader's place: the other query parameters stay, and the
// anchor the reader is at (the one in the address if it is on screen, else the last section
// heading above the top of the window) is carried over.
function onScreen(node) {
  const box = node.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

function currentAnchor() {
  const named = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (named && onScreen(named)) return location.hash;
  let best = null;
  for (const node of document.querySelectorAll("[data-anchor][id]")) {
    if (node.getBoundingClientRect().top <= 90) best = node;
  }
  return best ? "#" + best.id : location.hash;
}

for (const link of document.querySelectorAll("a.lang-link")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const url = new URL(location.href);
    url.searchParams.set("lang", link.dataset.lang);
    url.hash = currentAnchor();
    location.assign(url.toString());
  });
}
