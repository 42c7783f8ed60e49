/**
 * Why the tree may hold fewer organizations than the dashboard counts: the organization routes answer only those the
 * caller has a role in, own or inherited from a parent, and a global role (`admin` included) gives none
 * (docs/organizations.md). Pure, so the words are tested without a browser.
 */

const organizations = (n: number) => `${n} ${n === 1 ? 'organization exists' : 'organizations exist'}`;

/**
 * The note under the tree when some organizations are out of the operator's sight: `seen` is how many the operator's
 * listing counts, `total` how many the server holds (null when the operator may not read the dashboard).
 */
export function reachNote(seen: number | null, total: number | null): string | null {
  if (seen === null || total === null || total <= seen) return null;
  const mine = seen === 0 ? 'you are a member of none of them' : `you see the ${seen} you are a member of (directly or through a parent)`;
  return `${organizations(total)}; ${mine}. Organizations are administered by their own members: a global role, admin`
    + ' included, gives no role in them. An owner or admin of one can add you as a member.';
}

/** What an empty tree says: nothing exists yet, or nothing is the operator's. */
export function emptyTreeText(total: number | null, searching: boolean): string {
  if (searching) return 'No organization of yours matches.';
  if (total === 0) return 'No organization yet.';
  return 'You are a member of no organization.';
}
