/**
 * The one-time code store as passwordless sign-in uses it: a counted attempt on the live code, the live code itself,
 * and its single-use consumption. Other modules import these from here, never `otp.repo.ts` itself
 * (docs/architecture.md "Layout and dependency rules").
 */
export { consumeCode, findLiveCode, takeAttempt } from './otp.repo.js';
