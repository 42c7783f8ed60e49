import type { AppContext } from '../modules/applications/applications.service.js';
import type { AuthContext } from '../modules/sessions/bearer.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client address: the socket peer, or the forwarded address when the peer is a trusted proxy. */
    clientIp: string;
    /** The calling application, once application authentication has passed. */
    application: AppContext | null;
    /** The authenticated user and token claims, once a user guard has passed. */
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** `false` on the few routes that answer without application credentials (docs viewers). */
    appAuth?: boolean;
  }
}
