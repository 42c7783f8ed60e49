/** An application as the API shows it (never its secret). */
export interface Application {
  id: number;
  name: string;
  description: string;
  kind: 'confidential' | 'public';
  access_key: string;
  is_active: boolean;
  redirect_uris: string[];
  allowed_origins: string[];
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** The answer of create and regenerate: the only two that carry the secret. */
export interface Credentials {
  message: string;
  application: Application;
  credentials: { access_key: string; access_secret: string | null };
  warning: string;
}
