import { useState, type ReactNode } from 'react';
import type { Me } from './App';
import { href } from './router';
import { PAGES } from './pages';
import { whoOf } from './who';

/** The top bar and the navigation around a page; below 720 px wide the navigation folds behind a Menu button. */
export function Layout({ me, current, onSignOut, children }: { me: Me; current: string; onSignOut: () => void; children: ReactNode }) {
  // Folded again when a page is chosen, the current one included.
  const [open, setOpen] = useState(false);
  const who = whoOf(me);
  return (
    <div className="shell">
      <a className="skip" href="#content" onClick={(e) => { e.preventDefault(); document.getElementById('content')?.focus(); }}>
        Skip to content
      </a>
      <header className="topbar">
        <button type="button" className="menu-toggle" aria-expanded={open} aria-controls="nav" onClick={() => setOpen(!open)}>Menu</button>
        <span className="brand">Gatehouse Console</span>
        <span className="who">
          <strong>{who.name}</strong>
          {who.email && <span className="email"> {who.email}</span>}
        </span>
        <button type="button" className="secondary" onClick={onSignOut}>Sign out</button>
      </header>
      <div className="frame">
        <nav id="nav" aria-label="Console" className={open ? 'open' : undefined}>
          <ul>
            {PAGES.map((page) => (
              <li key={page.path}>
                <a href={href(page.path)} aria-current={page.path === current ? 'page' : undefined} onClick={() => setOpen(false)}>
                  {page.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="content" className="content" tabIndex={-1}>{children}</main>
      </div>
    </div>
  );
}
