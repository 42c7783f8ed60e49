import type { PageProps } from '.';
import { PendingActions } from './agents/PendingActions';
import { TokenDetail } from './agents/TokenDetail';
import { TokenList } from './agents/TokenList';
import './agents/agents.css';

/** `#/agents`: the signed-in user's pending approvals and agent tokens; `#/agents/<id>`: one token. */
export function Agents({ route }: PageProps) {
  const [, id] = route.parts;
  if (id) return <div className="agents-page"><TokenDetail key={id} id={id} /></div>;
  return (
    <div className="agents-page">
      <h1>Agents</h1>
      <PendingActions />
      <TokenList />
    </div>
  );
}
