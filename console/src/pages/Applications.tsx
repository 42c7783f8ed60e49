import type { PageProps } from '.';

export function Applications(_props: PageProps) {
  return <h1>Applications</h1>;
}
