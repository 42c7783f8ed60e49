/**
 * What other modules use of the accounts' store: the reads that sign a person in or show their profile, and the
 * guarded removal of a sign-in method (it refuses to leave an account with no way in). Other modules import these
 * from here, never `users.repo.ts` or `sign-in-methods.repo.ts` themselves, so the store's other queries stay this
 * module's own (docs/architecture.md "Layout and dependency rules").
 */
export {
  findPublicUser, findUserForClaims, findUserForLogin, findUserForLoginById, type LoginUser, type PublicUser,
} from './users.repo.js';
export { removeSignInMethod } from './sign-in-methods.repo.js';
