// The site menu on a phone: the navigation is folded behind the header's Menu button (CSS
// hides it below 820 px unless the header is marked open), so the page starts at the top.
const header = document.querySelector(".site-header");
const toggle = header && header.querySelector(".menu-toggle");
if (toggle) {
  toggle.addEventListener("click", () => {
    const open = !header.classList.contains("menu-open");
    header.classList.toggle("menu-open", open);
    toggle.setAttribute("aria-expanded", String(open));
  });
}
