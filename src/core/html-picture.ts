// The static picture inside an output's text/html fallback (the mount point shown where no script runs: nbconvert
// with scripts stripped, GitHub, nbviewer). Python writes the fallback as
// `<div class="pt2e-lens-root"><p class='pt2e-lens-loading'>summary</p>[picture]tables</div><script …>`;
// the picture sits in its own `<div class="pt2e-lens-picture">` so a later one replaces it (kept current).
const PICTURE = /<div class="pt2e-lens-picture">[\s\S]*?<\/svg><\/div>/;
const SUMMARY = /(<div class="pt2e-lens-root"[^>]*><p class='pt2e-lens-loading'>[^<]*<\/p>)/;

/** `html` with `svg` as its fallback's picture, or null when `html` is not a pt2e-lens fallback. */
export function htmlWithPicture(html: string, svg: string): string | null {
  const block = `<div class="pt2e-lens-picture">${svg}</div>`;
  if (PICTURE.test(html)) return html.replace(PICTURE, () => block);
  if (!SUMMARY.test(html)) return null;
  return html.replace(SUMMARY, (m) => m + block);
}

/** Whether the fallback already shows exactly this picture. */
export function hasPicture(html: string, svg: string): boolean {
  return html.includes(`<div class="pt2e-lens-picture">${svg}</div>`);
}
