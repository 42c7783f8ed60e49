/**
 * Whether this instance is shutting down. Readiness answers 503 from the first moment of the drain, while requests are
 * still answered, so a load balancer stops sending new ones before the listener closes (docs/deployment.md).
 */
export function createLifecycle() {
  let draining = false;
  return {
    draining: () => draining,
    startDraining: () => { draining = true; },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
