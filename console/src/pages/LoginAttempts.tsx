import type { PageProps } from '.';

export function LoginAttempts(_props: PageProps) {
  return <h1>LoginAttempts</h1>;
}
