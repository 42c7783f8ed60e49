import type { PageProps } from '.';

export function Webhooks(_props: PageProps) {
  return <h1>Webhooks</h1>;
}
