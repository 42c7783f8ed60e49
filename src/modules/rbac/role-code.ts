/** The longest role code (the `Code` schema of permissions.schemas.ts). */
export const MAX_CODE_LENGTH = 100;

/**
 * The role code derived from a role name, for clients that send none (docs/access-control.md "Roles"; docs/migrating-from-tenxyte.md, rule 16): accents are
 * dropped (`Éditeur` → `editeur`), letters lower-cased, every run of other characters becomes one `_`, and
 * `_` is trimmed from both ends (`  Sales -- EU ` → `sales_eu`). Answers null when nothing is left or the
 * result is longer than a code may be: the caller then refuses the name rather than invent or cut a code.
 */
export function roleCodeFromName(name: string): string | null {
  const code = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return code !== '' && code.length <= MAX_CODE_LENGTH ? code : null;
}
