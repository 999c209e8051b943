// Language switch that keeps the reader's place: the other query parameters stay, and the
// current anchor (or the section nearest the top of the window) is carried over.
function currentAnchor() {
  if (location.hash) return location.hash;
  const sections = [...document.querySelectorAll("[data-anchor]")];
  let best = null;
  for (const s of sections) {
    if (s.getBoundingClientRect().top <= 80) best = s;
  }
  return best ? "#" + best.id : "";
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
