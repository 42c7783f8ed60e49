/**
 * The deletion requests as the API shows them, and the answers of processing one or the expired ones, as the server's OpenAPI document describes them (api-types.ts, generated:
 * docs/console.md).
 */
import type { Answer } from '../../api';

export type DeletionRequest = Answer<'admin/deletion-requests/{id}/'>;
export type DeletionStatus = DeletionRequest['status'];

export type ProcessAnswer = Answer<'admin/deletion-requests/{id}/process/', 'post'>;

export type ProcessExpiredAnswer = Answer<'admin/deletion-requests/process-expired/', 'post'>;
