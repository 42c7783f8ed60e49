import { Suspense, useEffect, useState } from 'react';
import { api, loadConfig, refresh, setAccessToken, type Answer } from './api';
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

type State = { step: 'loading' } | { step: 'signed-out' } | { step: 'signed-in'; me: Me } | { step: 'failed'; error: unknown }
  | { step: 'elsewhere'; origin: string };

/** Resumes the session the refresh cookie holds, or asks to sign in. */
export function App() {
  const [state, setState] = useState<State>({ step: 'loading' });

  const enter = async () => {
    try {
      setState({ step: 'signed-in', me: await api<Answer<'me/'>>('GET', 'me/') });
    } catch (error) {
      setState({ step: 'failed', error });
    }
  };

  useEffect(() => {
    const start = async () => {
      // Opened at another address than SVC_PUBLIC_URL (localhost for 127.0.0.1): the API would refuse every call.
      const { origins } = await loadConfig();
      if (origins.length > 0 && !origins.includes(window.location.origin)) return setState({ step: 'elsewhere', origin: origins[0]! });
      return (await refresh()) ? enter() : setState({ step: 'signed-out' });
    };
    start().catch((error: unknown) => setState({ step: 'failed', error }));
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
    case 'elsewhere':
      return (
        <main className="centered">
          <div className="card">
            <h1>Open the console at its own address</h1>
            <p>This server's console works at <a href={`${state.origin}/console/`}>{state.origin}/console/</a> (SVC_PUBLIC_URL).</p>
          </div>
        </main>
      );
    case 'signed-out':
      return <SignIn onSignedIn={enter} />;
    case 'signed-in':
      return <Console me={state.me} onSignOut={signOut} />;
  }
}

/** The signed-in console: the page the URL fragment names (its module fetched when first shown), inside the layout. */
function Console({ me, onSignOut }: { me: Me; onSignOut: () => void }) {
  const route = useRoute();
  const [first = ''] = route.parts;
  const page = PAGES.find((p) => p.path === first);
  useEffect(() => { document.title = `${page?.title ?? 'Not found'} · Gatehouse Console`; }, [page]);
  return (
    <Layout me={me} current={page?.path ?? ''} onSignOut={onSignOut}>
      {page
        ? <Suspense fallback={<p aria-busy="true">Loading…</p>}><page.component route={route} me={me} /></Suspense>
        : <><h1>Not found</h1><p>No such page in the console.</p></>}
    </Layout>
  );
}
