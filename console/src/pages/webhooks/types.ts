export interface Webhook {
  id: number;
  url: string;
  events: string[];
  is_active: boolean;
  description: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** The creation answer: the only one carrying the signing secret. */
export interface WebhookCreated { message: string; webhook: Webhook; secret: string; warning: string }

export interface Delivery {
  id: number;
  webhook_id: number;
  event_id: string;
  type: string;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  replay_of: number | null;
  created_at: string;
  delivered_at: string | null;
  payload: Record<string, unknown>;
}
