/** SPEC.md "Deletion request", and the answers of processing one or the expired ones. */
export type DeletionStatus = 'pending' | 'confirmation_sent' | 'confirmed' | 'completed' | 'cancelled';

export interface DeletionRequest {
  id: number;
  user: number;
  user_email: string | null;
  status: DeletionStatus;
  requested_at: string;
  confirmed_at: string | null;
  grace_period_ends_at: string;
  completed_at: string | null;
  ip_address: string | null;
  reason: string | null;
  admin_notes: string | null;
  processed_by: number | null;
  processed_by_email: string | null;
  is_grace_period_expired: boolean;
}

export interface ProcessAnswer {
  message: string;
  deletion_completed: boolean;
  processed_at: string;
  data_anonymized: boolean;
  audit_log_id: number | null;
  user_notified: boolean;
  request: DeletionRequest;
}

export interface ProcessExpiredAnswer {
  message: string;
  processed_count: number;
  failed_count: number;
  skipped_count: number;
  processing_time: number;
  details: Array<{ request_id: number; user_id: number; status: 'completed' | 'failed'; error?: string }>;
}
