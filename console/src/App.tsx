import { useEffect, useState } from 'react';
import { api, refresh, setAccessToken } from './api';
import { ErrorMessage } from './ErrorMessage';
import { Layout } from './Layout';
import { PAGES } from './pages';
import { useRoute } from './router';
import { SignIn } from './SignIn';

export interface Me {
  id: number;
  email: string | null;
  first_name: string;
  last_name: string;
}

type State = { step: 'loading' } | { step: 'signed-out' } | { step: 'signed-in'; me: Me } | { step: 'failed'; error: unknown };

/** Resumes the session the refresh cookie holds, or asks to sign in. */
export function App() {
  const [state, setState] = useState<State>({ step: 'loading' });

  const enter = async () => {
    try {
      setState({ step: 'signed-in', me: await api<Me>('GET', 'me/') });
    } catch (error) {
      setState({ step: 'failed', error });
    }
  };

  useEffect(() => {
    refresh().then((resumed) => (resumed ? enter() : setState({ step: 'signed-out' })),
      (error: unknown) => setState({ step: 'failed', error }));
  }, []);

  const signOut = async () => {
    await api('POST', 'logout/', {}).catch(() => undefined);
    setAccessToken(null);
    setState({ step: 'signed-out' });
  };

  switch (state.step) {
    case 'loading':
      return <main className="centered" aria-busy="true"><p>Loading…</p></main>;
    case 'failed':
      return <main className="centered"><ErrorMessage error={state.error} /></main>;
    case 'signed-out':
      return <SignIn onSignedIn={enter} />;
    case 'signed-in':
      return <Console me={state.me} onSignOut={signOut} />;
  }
}

/** The signed-in console: the page the URL fragment names, inside the layout. */
function Console({ me, onSignOut }: { me: Me; onSignOut: () => void }) {
  const route = useRoute();
  const [first = ''] = route.parts;
  const page = PAGES.find((p) => p.path === first);
  useEffect(() => { document.title = `${page?.title ?? 'Not found'} · Gatehouse Console`; }, [page]);
  return (
    <Layout me={me} current={page?.path ?? ''} onSignOut={onSignOut}>
      {page ? <page.component route={route} me={me} /> : <><h1>Not found</h1><p>No such page in the console.</p></>}
    </Layout>
  );
}
