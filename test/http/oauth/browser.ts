/**
 * A browser without JavaScript for the authorization server's pages: a cookie jar, redirects followed by hand within
 * the issuer's origin (the last one, to the client, is answered rather than followed), and forms read from the HTML.
 */
export interface PageAnswer {
  status: number;
  url: string;
  location: string | null;
  html: string;
}

export function createBrowser(origin: string) {
  const jar = new Map<string, string>();

  function remember(res: Response) {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

  /** One request, no redirect followed. */
  async function request(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {})
    : Promise<PageAnswer> {
    const absolute = new URL(url, origin).toString();
    const res = await fetch(absolute, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded', origin } : {}),
        ...init.headers,
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    remember(res);
    return { status: res.status, url: absolute, location: res.headers.get('location'), html: await res.text() };
  }

  /** Follows redirects while they stay on the issuer's origin; answers the first page, or the redirect leaving it. */
  async function follow(first: PageAnswer, headers: Record<string, string> = {}): Promise<PageAnswer> {
    let answer = first;
    for (let hops = 0; hops < 10 && answer.location; hops++) {
      const next = new URL(answer.location, answer.url);
      if (next.origin !== origin) return answer;
      answer = await request(next.toString(), { headers });
    }
    return answer;
  }

  const open = async (url: string) => follow(await request(url));
  const submit = async (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    follow(await request(url, { method: 'POST', form, headers }));

  return { request, follow, open, submit, jar };
}

/** The action and hidden fields of the first form of a page. */
export function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in the page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) fields[m[1]!] = m[2]!;
  return { action: action.replace(/&amp;/g, '&'), fields };
}
