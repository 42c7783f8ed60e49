import type { Me } from './App';

/**
 * Who is signed in, for the top bar: the name, and the email beside it. Without a name the email takes the name's
 * place and is not repeated; with neither, a neutral word.
 */
export function whoOf(me: Pick<Me, 'email' | 'first_name' | 'last_name'>): { name: string; email: string | null } {
  const name = [me.first_name, me.last_name].map((part) => part?.trim()).filter(Boolean).join(' ');
  const email = me.email?.trim() || null;
  if (name) return { name, email };
  return { name: email ?? 'Signed in', email: null };
}
