import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config/settings.js';

export function openApiOptions(config: Config): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Gatehouse API',
        version: '1',
        description: 'Authentication and access management for people and the AI agents acting for them.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          accessKey: { type: 'apiKey', in: 'header', name: 'X-Access-Key' },
          accessSecret: { type: 'apiKey', in: 'header', name: 'X-Access-Secret' },
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      security: config.APPLICATION_AUTH_ENABLED ? [{ accessKey: [], accessSecret: [] }] : [],
    },
  };
}
