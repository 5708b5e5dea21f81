// @ts-check
// Which table an address names: the page's own (/t/X, /table/X, /tables/X, /join/X or
// ?table=X, ?t=X, ?code=X), a code or link typed or pasted in the lobby, and the link the
// page shows to invite others.

const TABLE_PATH = /\/(?:t|table|tables|join)\/([^/?#]+)/;

/** The table id or code in a path and query, or null.
 * @param {string} pathname @param {URLSearchParams} params @returns {string | null} */
function tableIn(pathname, params) {
  const m = pathname.match(TABLE_PATH);
  if (m) return decodeURIComponent(m[1]);
  return params.get("table") || params.get("t") || params.get("code");
}

/** The table named by the page's address.
 * @param {{pathname: string, search: string}} [where] @returns {string | null} */
export function tableFromLocation(where = location) {
  return tableIn(where.pathname, new URLSearchParams(where.search));
}

/** A code or a pasted link -> the table's id or code ("" for nothing typed).
 * @param {string} text @returns {string} */
export function codeFromInput(text) {
  const s = text.trim();
  if (!s) return "";
  try {
    const u = new URL(s);
    const x = tableIn(u.pathname, u.searchParams);
    if (x) return x;
  } catch (_e) { /* not a link */ }
  return s.replace(/\s+/g, "");
}

/** The invitation link shown for table `id`, absolute: the server's (`url`: "/t/CODE" or
 * the configured public URL's link), else /t/ with its code or id.
 * @param {string} id @param {{url?: string | null, code?: string | null}} table
 * @param {string} [origin] @returns {string} */
export function tableLink(id, table, origin = location.origin) {
  const fallback = `/t/${encodeURIComponent(table.code || id)}`;
  try {
    return new URL(table.url || fallback, origin).href;
  } catch (_e) {
    return `${origin}${fallback}`;
  }
}
