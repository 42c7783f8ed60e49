/**
 * What a service records about the request behind a call (audit rows, login attempts, sessions): the calling
 * application, the client address and user agent, and the request's id. HTTP builds it from the request; calls
 * without one (the `gatehouse` command) pass nulls.
 */
export interface RequestMeta {
  applicationId: number | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}
