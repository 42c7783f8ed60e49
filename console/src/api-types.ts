/**
 * The API's paths, relative to its prefix, with their parameters, bodies and answers, generated from the server's
 * OpenAPI document by scripts/console-api-types.ts: do not edit, run `npm run console:api-types` (docs/console.md).
 */

export interface paths {
    "2fa/backup-codes/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code?: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backup_codes: string[];
                            message: string;
                            warning: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "2fa/confirm/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code?: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            is_enabled: boolean;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "2fa/disable/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code?: string;
                        password: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            is_enabled: boolean;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "2fa/setup/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The account password, needed when the sign-in is older than SVC_REAUTH_MAX_AGE */
                        password?: string;
                        /** @description With two-factor authentication on, a TOTP or backup code, sent with `password` */
                        totp_code?: string;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backup_codes: string[];
                            message: string;
                            provisioning_uri: string;
                            /** @description PNG image as a data: URI */
                            qr_code: string;
                            secret: string;
                            warning: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "2fa/status/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            backup_codes_remaining: number;
                            is_enabled: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "account-deletion-status/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active_request: {
                                days_remaining: number;
                                /** Format: date-time */
                                grace_period_ends_at: string;
                                id: number;
                                /** Format: date-time */
                                requested_at: string;
                                /** @enum {unknown} */
                                status: "pending" | "confirmation_sent" | "confirmed" | "completed" | "cancelled";
                            } | null;
                            history: {
                                /** Format: date-time */
                                completed_at: string | null;
                                /** Format: date-time */
                                confirmed_at: string | null;
                                id: number;
                                reason: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @enum {unknown} */
                                status: "pending" | "confirmation_sent" | "confirmed" | "completed" | "cancelled";
                            }[];
                            total_requests: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/audit-logs/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description An action code (an event type as the Tenxyte SDK names it) */
                    action?: string;
                    actor_id?: number;
                    application_id?: number;
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_from?: string;
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_to?: string;
                    /** @description An event type, for example user_banned */
                    event_type?: string;
                    ip_address?: string;
                    /** @description Sort by created_at, event_type, severity; prefix - for descending (default -created_at) */
                    ordering?: "created_at" | "-created_at" | "event_type" | "-event_type" | "severity" | "-severity";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description X-Prompt-Trace-ID of agent requests */
                    prompt_trace_id?: string;
                    severity?: "info" | "warning" | "critical";
                    user_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** @description The event type as the Tenxyte SDK names it (login, login_failed, token_refresh, …) */
                                action: string;
                                actor: number | null;
                                actor_email: string | null;
                                application: number | null;
                                application_name: string | null;
                                /** Format: date-time */
                                created_at: string;
                                details: {
                                    [key: string]: unknown;
                                };
                                event_type: string;
                                id: string;
                                ip_address: string | null;
                                /** @description X-Prompt-Trace-ID of the agent request, when it sent one */
                                prompt_trace_id?: string;
                                request_id: string | null;
                                severity: string;
                                user: number | null;
                                user_agent: string | null;
                                user_email: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/audit-logs/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The event type as the Tenxyte SDK names it (login, login_failed, token_refresh, …) */
                            action: string;
                            actor: number | null;
                            actor_email: string | null;
                            application: number | null;
                            application_name: string | null;
                            /** Format: date-time */
                            created_at: string;
                            details: {
                                [key: string]: unknown;
                            };
                            event_type: string;
                            id: string;
                            ip_address: string | null;
                            /** @description X-Prompt-Trace-ID of the agent request, when it sent one */
                            prompt_trace_id?: string;
                            request_id: string | null;
                            severity: string;
                            user: number | null;
                            user_agent: string | null;
                            user_email: string | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/blacklisted-tokens/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    expired?: boolean;
                    /** @description Sort by blacklisted_at, expires_at; prefix - for descending (default -blacklisted_at) */
                    ordering?: "blacklisted_at" | "-blacklisted_at" | "expires_at" | "-expires_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    reason?: "logout" | "password_change" | "security";
                    user_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** Format: date-time */
                                blacklisted_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: string;
                                is_expired: boolean;
                                reason: string;
                                token_jti: string;
                                user: number | null;
                                user_email: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/blacklisted-tokens/cleanup/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted_count: number;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/deletion-requests/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_from?: string;
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_to?: string;
                    /** @description true: confirmed requests whose grace period ends within 7 days (or has ended); false: all others */
                    grace_period_expiring?: boolean;
                    /** @description Sort by requested_at, grace_period_ends_at, status; prefix - for descending (default -requested_at) */
                    ordering?: "requested_at" | "-requested_at" | "grace_period_ends_at" | "-grace_period_ends_at" | "status" | "-status";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    status?: "pending" | "confirmation_sent" | "confirmed" | "completed" | "cancelled";
                    user_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                admin_notes: string | null;
                                /** Format: date-time */
                                completed_at: string | null;
                                /** Format: date-time */
                                confirmed_at: string | null;
                                /** Format: date-time */
                                grace_period_ends_at: string;
                                id: number;
                                ip_address: string | null;
                                is_grace_period_expired: boolean;
                                processed_by: number | null;
                                processed_by_email: string | null;
                                reason: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @enum {unknown} */
                                status: "pending" | "confirmation_sent" | "confirmed" | "completed" | "cancelled";
                                user: number;
                                /** @description Blank once the request is completed */
                                user_email: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/deletion-requests/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            admin_notes: string | null;
                            /** Format: date-time */
                            completed_at: string | null;
                            /** Format: date-time */
                            confirmed_at: string | null;
                            /** Format: date-time */
                            grace_period_ends_at: string;
                            id: number;
                            ip_address: string | null;
                            is_grace_period_expired: boolean;
                            processed_by: number | null;
                            processed_by_email: string | null;
                            reason: string | null;
                            /** Format: date-time */
                            requested_at: string;
                            /** @enum {unknown} */
                            status: "pending" | "confirmation_sent" | "confirmed" | "completed" | "cancelled";
                            user: number;
                            /** @description Blank once the request is completed */
                            user_email: string | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/deletion-requests/{id}/process/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        admin_notes?: string;
                        /** @description Must be "PERMANENTLY DELETE" */
                        confirmation?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            audit_log_id: number | null;
                            data_anonymized: boolean;
                            deletion_completed: boolean;
                            message: string;
                            /** Format: date-time */
                            processed_at: string;
                            request: {
                                admin_notes: string | null;
                                /** Format: date-time */
                                completed_at: string | null;
                                /** Format: date-time */
                                confirmed_at: string | null;
                                /** Format: date-time */
                                grace_period_ends_at: string;
                                id: number;
                                ip_address: string | null;
                                is_grace_period_expired: boolean;
                                processed_by: number | null;
                                processed_by_email: string | null;
                                reason: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @enum {unknown} */
                                status: "pending" | "confirmation_sent" | "confirmed" | "completed" | "cancelled";
                                user: number;
                                /** @description Blank once the request is completed */
                                user_email: string | null;
                            };
                            /** @description The last message to the former address or phone is queued */
                            user_notified: boolean;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/deletion-requests/process-expired/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            details: {
                                error?: string;
                                request_id: number;
                                /** @enum {unknown} */
                                status: "completed" | "failed";
                                user_id: number;
                            }[];
                            failed: number;
                            failed_count: number;
                            message: string;
                            processed: number;
                            processed_count: number;
                            /** @description Seconds */
                            processing_time: number;
                            /** @description Held by another instance, or no longer due, when this run reached them */
                            skipped_count: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/grants/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description One person's grants to OAuth clients (`user_id`), newest first, as `me/grants/` lists them. */
        get: {
            parameters: {
                query: {
                    page?: number;
                    page_size?: number;
                    /** @description The person whose grants are listed */
                    user_id: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                client_id: string;
                                client_name: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description What ai/authorize/ counts this grant's access tokens against; null for a grant without a resource */
                                delegation: {
                                    /** @description The delegation in ai/agent-tokens/: its usage, limits and pending actions */
                                    agent_token_id: number;
                                    budget_limit_usd: number | null;
                                    /** Format: date-time */
                                    expires_at: string;
                                    max_requests_per_minute: number;
                                } | null;
                                /** @description The grant's id */
                                id: string;
                                /** @description The organization slug it is bound to */
                                organization: string | null;
                                /** @description The API its access tokens are for; null: userinfo only */
                                resource: string | null;
                                scopes: string[];
                                /** @description Its delegation's state (docs/oauth.md "Grants and ai/authorize/"): suspended by a breaker or by the person, revoked or expired; a grant without a resource is active while it lasts */
                                status: "active" | "suspended" | "revoked" | "expired";
                                /** @description False for clients registered dynamically or by a metadata document */
                                verified: boolean;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/grants/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/login-attempts/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    application_id?: number;
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_from?: string;
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_to?: string;
                    /** @description Exact email or phone (case-insensitive) */
                    identifier?: string;
                    ip_address?: string;
                    /** @description Sort by created_at, identifier, ip_address; prefix - for descending (default -created_at) */
                    ordering?: "created_at" | "-created_at" | "identifier" | "-identifier" | "ip_address" | "-ip_address";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    success?: boolean;
                    user_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                application: number | null;
                                /** Format: date-time */
                                created_at: string;
                                failure_reason: string | null;
                                id: string;
                                identifier: string;
                                ip_address: string | null;
                                method: string;
                                success: boolean;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/refresh-tokens/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    application_id?: number;
                    expired?: boolean;
                    is_revoked?: boolean;
                    /** @description Sort by created_at, expires_at, last_used_at; prefix - for descending (default -created_at) */
                    ordering?: "created_at" | "-created_at" | "expires_at" | "-expires_at" | "last_used_at" | "-last_used_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    user_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                application: number | null;
                                application_name: string | null;
                                /** Format: date-time */
                                created_at: string;
                                device_info: string | null;
                                /** @description The session's device in words, from device_info or else the User-Agent */
                                device_summary: string | null;
                                /** Format: date-time */
                                expires_at: string;
                                id: string;
                                ip_address: string | null;
                                is_expired: boolean;
                                is_revoked: boolean;
                                is_rotated: boolean;
                                /** Format: date-time */
                                last_used_at: string | null;
                                user: number;
                                user_email: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/refresh-tokens/{id}/revoke/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Must be "REVOKE" */
                        confirmation?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            token: {
                                application: number | null;
                                application_name: string | null;
                                /** Format: date-time */
                                created_at: string;
                                device_info: string | null;
                                /** @description The session's device in words, from device_info or else the User-Agent */
                                device_summary: string | null;
                                /** Format: date-time */
                                expires_at: string;
                                id: string;
                                ip_address: string | null;
                                is_expired: boolean;
                                is_revoked: boolean;
                                is_rotated: boolean;
                                /** Format: date-time */
                                last_used_at: string | null;
                                user: number;
                                user_email: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/users/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_from?: string;
                    /** @description YYYY-MM-DD, a UTC day (date_to is inclusive) */
                    date_to?: string;
                    is_active?: boolean;
                    is_banned?: boolean;
                    /** @description Soft-deleted accounts are listed only with is_deleted=true */
                    is_deleted?: boolean;
                    is_locked?: boolean;
                    is_staff?: boolean;
                    is_superuser?: boolean;
                    /** @description Sort by created_at, email, last_login, first_name, last_name; prefix - for descending (default -created_at) */
                    ordering?: "created_at" | "-created_at" | "email" | "-email" | "last_login" | "-last_login" | "first_name" | "-first_name" | "last_name" | "-last_name";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description A role code the user holds */
                    role?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** Format: date-time */
                                created_at: string;
                                email: string | null;
                                first_name: string;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                must_change_password: boolean;
                                phone: string | null;
                                roles: string[];
                                username: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/users/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ban_reason: string | null;
                            /** Format: date-time */
                            banned_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            deleted_at: string | null;
                            email: string | null;
                            failed_login_count: number;
                            first_name: string;
                            has_usable_password: boolean;
                            id: number;
                            is_2fa_enabled: boolean;
                            is_active: boolean;
                            is_banned: boolean;
                            is_deleted: boolean;
                            is_email_verified: boolean;
                            is_locked: boolean;
                            is_phone_verified: boolean;
                            is_staff: boolean;
                            is_superuser: boolean;
                            /** Format: date-time */
                            last_login: string | null;
                            last_name: string;
                            /** Format: date-time */
                            locked_until: string | null;
                            max_devices: number | null;
                            max_sessions: number | null;
                            must_change_password: boolean;
                            /** @description Effective permission codes */
                            permissions: string[];
                            phone: string | null;
                            roles: string[];
                            /** Format: date-time */
                            updated_at: string;
                            username: string | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        first_name?: string;
                        is_active?: boolean;
                        /** @description Superusers only */
                        is_staff?: boolean;
                        /** @description Superusers only */
                        is_superuser?: boolean;
                        last_name?: string;
                        /** @description 0: unlimited; null: the server setting */
                        max_devices?: number | null;
                        /** @description 0: unlimited; null: the server setting */
                        max_sessions?: number | null;
                        must_change_password?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            updated_fields: string[];
                            user: {
                                ban_reason: string | null;
                                /** Format: date-time */
                                banned_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                deleted_at: string | null;
                                email: string | null;
                                failed_login_count: number;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                max_devices: number | null;
                                max_sessions: number | null;
                                must_change_password: boolean;
                                /** @description Effective permission codes */
                                permissions: string[];
                                phone: string | null;
                                roles: string[];
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "admin/users/{id}/ban/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description Sessions ended by this action */
                            sessions_revoked?: number;
                            user: {
                                ban_reason: string | null;
                                /** Format: date-time */
                                banned_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                deleted_at: string | null;
                                email: string | null;
                                failed_login_count: number;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                max_devices: number | null;
                                max_sessions: number | null;
                                must_change_password: boolean;
                                /** @description Effective permission codes */
                                permissions: string[];
                                phone: string | null;
                                roles: string[];
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/users/{id}/lock/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Default 30, at most 30 days
                         * @default 30
                         */
                        duration_minutes?: number;
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description Sessions ended by this action */
                            sessions_revoked?: number;
                            user: {
                                ban_reason: string | null;
                                /** Format: date-time */
                                banned_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                deleted_at: string | null;
                                email: string | null;
                                failed_login_count: number;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                max_devices: number | null;
                                max_sessions: number | null;
                                must_change_password: boolean;
                                /** @description Effective permission codes */
                                permissions: string[];
                                phone: string | null;
                                roles: string[];
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/users/{id}/reset-2fa/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description Sessions ended by this action */
                            sessions_revoked?: number;
                            user: {
                                ban_reason: string | null;
                                /** Format: date-time */
                                banned_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                deleted_at: string | null;
                                email: string | null;
                                failed_login_count: number;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                max_devices: number | null;
                                max_sessions: number | null;
                                must_change_password: boolean;
                                /** @description Effective permission codes */
                                permissions: string[];
                                phone: string | null;
                                roles: string[];
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/users/{id}/unban/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description Sessions ended by this action */
                            sessions_revoked?: number;
                            user: {
                                ban_reason: string | null;
                                /** Format: date-time */
                                banned_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                deleted_at: string | null;
                                email: string | null;
                                failed_login_count: number;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                max_devices: number | null;
                                max_sessions: number | null;
                                must_change_password: boolean;
                                /** @description Effective permission codes */
                                permissions: string[];
                                phone: string | null;
                                roles: string[];
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "admin/users/{id}/unlock/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description Sessions ended by this action */
                            sessions_revoked?: number;
                            user: {
                                ban_reason: string | null;
                                /** Format: date-time */
                                banned_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                deleted_at: string | null;
                                email: string | null;
                                failed_login_count: number;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_banned: boolean;
                                is_deleted: boolean;
                                is_email_verified: boolean;
                                is_locked: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                /** Format: date-time */
                                locked_until: string | null;
                                max_devices: number | null;
                                max_sessions: number | null;
                                must_change_password: boolean;
                                /** @description Effective permission codes */
                                permissions: string[];
                                phone: string | null;
                                roles: string[];
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/authorize/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Decides an agent's request to an integrator's own API. Denials answer 401 or 403 `{decision: "deny", code, error}` (with `reason` for a suspended token). */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Hex SHA-256 of the raw body of the agent's request (of the empty string when it has none) */
                        body_sha256?: string;
                        /** @description The HTTP method of the agent's request */
                        method?: string;
                        /** @description Slug of the organization the request acts in (the double check then uses the user's role there) */
                        organization?: string;
                        /** @description The path of the agent's request, with its query string */
                        path?: string;
                        /** @description The permission code the integrator's route needs */
                        permission: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent_id: string;
                            agent_token_id: number;
                            /** @description The tokens from the root to this one (docs/agents.md "Delegation") */
                            chain: {
                                agent_id: string;
                                id: number;
                            }[];
                            /** @enum {string} */
                            decision: "allow";
                            /** @description What the token may use: its grant ∩ every ancestor's */
                            granted_permissions: string[];
                            /** @description The delegating user */
                            user: {
                                email: string | null;
                                id: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action_id: number;
                            /** @description Repeat the same request with it in X-Action-Confirmation once approved */
                            confirmation_token: string;
                            /** @enum {string} */
                            decision: "pending";
                            /** Format: date-time */
                            expires_at: string;
                            message: string;
                            /** @enum {string} */
                            status: "pending_confirmation";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/pending-actions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    agent_token_id?: number;
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                agent_id: string;
                                agent_token_id: number;
                                confirmation_token: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                method: string;
                                /** @description Path and query string, parameters sorted */
                                path: string;
                                /** @description The request body, with password, secret, token and code values redacted */
                                payload: unknown;
                                permission: string | null;
                                prompt_trace_id: string | null;
                                /** @enum {string} */
                                status: "pending_confirmation" | "approved" | "rejected" | "executed";
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/pending-actions/{id}/approve/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: {
                                agent_id: string;
                                agent_token_id: number;
                                confirmation_token: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                method: string;
                                /** @description Path and query string, parameters sorted */
                                path: string;
                                /** @description The request body, with password, secret, token and code values redacted */
                                payload: unknown;
                                permission: string | null;
                                prompt_trace_id: string | null;
                                /** @enum {string} */
                                status: "pending_confirmation" | "approved" | "rejected" | "executed";
                            };
                            message: string;
                            /** @enum {string} */
                            status: "approved" | "rejected" | "confirmed" | "denied";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/pending-actions/{id}/reject/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: {
                                agent_id: string;
                                agent_token_id: number;
                                confirmation_token: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                method: string;
                                /** @description Path and query string, parameters sorted */
                                path: string;
                                /** @description The request body, with password, secret, token and code values redacted */
                                payload: unknown;
                                permission: string | null;
                                prompt_trace_id: string | null;
                                /** @enum {string} */
                                status: "pending_confirmation" | "approved" | "rejected" | "executed";
                            };
                            message: string;
                            /** @enum {string} */
                            status: "approved" | "rejected" | "confirmed" | "denied";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/pending-actions/confirm/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: {
                                agent_id: string;
                                agent_token_id: number;
                                confirmation_token: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                method: string;
                                /** @description Path and query string, parameters sorted */
                                path: string;
                                /** @description The request body, with password, secret, token and code values redacted */
                                payload: unknown;
                                permission: string | null;
                                prompt_trace_id: string | null;
                                /** @enum {string} */
                                status: "pending_confirmation" | "approved" | "rejected" | "executed";
                            };
                            message: string;
                            /** @enum {string} */
                            status: "approved" | "rejected" | "confirmed" | "denied";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/pending-actions/deny/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action: {
                                agent_id: string;
                                agent_token_id: number;
                                confirmation_token: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                method: string;
                                /** @description Path and query string, parameters sorted */
                                path: string;
                                /** @description The request body, with password, secret, token and code values redacted */
                                payload: unknown;
                                permission: string | null;
                                prompt_trace_id: string | null;
                                /** @enum {string} */
                                status: "pending_confirmation" | "approved" | "rejected" | "executed";
                            };
                            message: string;
                            /** @enum {string} */
                            status: "approved" | "rejected" | "confirmed" | "denied";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    agent_id?: string;
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    status?: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                agent_id: string;
                                budget_limit_usd: number | null;
                                can_delegate: boolean;
                                /** @description From the root to this token, inclusive (its length is depth) */
                                chain: {
                                    agent_id: string;
                                    id: number;
                                }[];
                                circuit_breaker: {
                                    max_failed_requests: number;
                                    max_requests_per_minute: number;
                                    max_requests_total: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Alias of request_count */
                                current_request_count: number;
                                dead_mans_switch: {
                                    heartbeat_required_every: number;
                                } | null;
                                /** @description 1 for a token its person created */
                                depth: number;
                                /** Format: date-time */
                                expires_at: string;
                                failed_count: number;
                                granted_permissions: string[];
                                id: number;
                                /** Format: date-time */
                                last_heartbeat_at: string | null;
                                /** Format: date-time */
                                last_used_at: string | null;
                                /** @description The slug of the token's organization */
                                organization: string | null;
                                /** @description The token this one was delegated from */
                                parent_id: number | null;
                                request_count: number;
                                spend_usd: number;
                                /** @enum {string} */
                                status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                                suspended_reason: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The agent's own name for itself */
                        agent_id: string;
                        /** @description Cumulative reported cost at which the token is suspended */
                        budget_limit_usd?: number | null;
                        /** @description The token may create narrower children for sub-agents (default false) */
                        can_delegate?: boolean;
                        circuit_breaker?: {
                            /** @description Consecutive denied requests before the token is suspended (default 10) */
                            max_failed_requests?: number;
                            /** @description With window_seconds: requests per window */
                            max_requests?: number;
                            /** @description Requests per minute before the token is suspended (default 60) */
                            max_requests_per_minute?: number;
                            /** @description Requests in the token's life before it is suspended (default 1000) */
                            max_requests_total?: number;
                            /** @description With max_requests: the window in seconds */
                            window_seconds?: number;
                        };
                        dead_mans_switch?: {
                            /** @description Seconds between heartbeats before the token is suspended */
                            heartbeat_required_every: number;
                        } | null;
                        /** @description Seconds, at most SVC_AIRS_MAX_TOKEN_LIFETIME (default 3600) */
                        expires_in?: number;
                        /** @description Slug: the token acts only there (and below it) */
                        organization?: string;
                        /** @description The account password, needed when the sign-in is older than SVC_REAUTH_MAX_AGE */
                        password?: string;
                        /** @default [] */
                        permissions?: string[];
                        /** @description With two-factor authentication on, a TOTP or backup code, sent with `password` */
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent_id: string;
                            budget_limit_usd: number | null;
                            /** Format: date-time */
                            expires_at: string;
                            granted_permissions: string[];
                            id: number;
                            organization: string | null;
                            /** @enum {string} */
                            status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                            token: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent_id: string;
                            budget_limit_usd: number | null;
                            can_delegate: boolean;
                            /** @description From the root to this token, inclusive (its length is depth) */
                            chain: {
                                agent_id: string;
                                id: number;
                            }[];
                            circuit_breaker: {
                                max_failed_requests: number;
                                max_requests_per_minute: number;
                                max_requests_total: number;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description Alias of request_count */
                            current_request_count: number;
                            dead_mans_switch: {
                                heartbeat_required_every: number;
                            } | null;
                            /** @description 1 for a token its person created */
                            depth: number;
                            /** Format: date-time */
                            expires_at: string;
                            failed_count: number;
                            granted_permissions: string[];
                            id: number;
                            /** Format: date-time */
                            last_heartbeat_at: string | null;
                            /** Format: date-time */
                            last_used_at: string | null;
                            /** @description The slug of the token's organization */
                            organization: string | null;
                            /** @description The token this one was delegated from */
                            parent_id: number | null;
                            request_count: number;
                            spend_usd: number;
                            /** @enum {string} */
                            status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                            suspended_reason: string | null;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agent_id?: string;
                        /** @description Cumulative reported cost at which the token is suspended */
                        budget_limit_usd?: number | null;
                        /**
                         * @description Only clears it: a token never gains delegation
                         * @enum {boolean}
                         */
                        can_delegate?: false;
                        circuit_breaker?: {
                            /** @description Consecutive denied requests before the token is suspended (default 10) */
                            max_failed_requests?: number;
                            /** @description With window_seconds: requests per window */
                            max_requests?: number;
                            /** @description Requests per minute before the token is suspended (default 60) */
                            max_requests_per_minute?: number;
                            /** @description Requests in the token's life before it is suspended (default 1000) */
                            max_requests_total?: number;
                            /** @description With max_requests: the window in seconds */
                            window_seconds?: number;
                        };
                        dead_mans_switch?: {
                            /** @description Seconds between heartbeats before the token is suspended */
                            heartbeat_required_every: number;
                        } | null;
                        permissions?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent_id: string;
                            budget_limit_usd: number | null;
                            can_delegate: boolean;
                            /** @description From the root to this token, inclusive (its length is depth) */
                            chain: {
                                agent_id: string;
                                id: number;
                            }[];
                            circuit_breaker: {
                                max_failed_requests: number;
                                max_requests_per_minute: number;
                                max_requests_total: number;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description Alias of request_count */
                            current_request_count: number;
                            dead_mans_switch: {
                                heartbeat_required_every: number;
                            } | null;
                            /** @description 1 for a token its person created */
                            depth: number;
                            /** Format: date-time */
                            expires_at: string;
                            failed_count: number;
                            granted_permissions: string[];
                            id: number;
                            /** Format: date-time */
                            last_heartbeat_at: string | null;
                            /** Format: date-time */
                            last_used_at: string | null;
                            /** @description The slug of the token's organization */
                            organization: string | null;
                            /** @description The token this one was delegated from */
                            parent_id: number | null;
                            request_count: number;
                            spend_usd: number;
                            /** @enum {string} */
                            status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                            suspended_reason: string | null;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked" | "suspended" | "active";
                            token: {
                                agent_id: string;
                                budget_limit_usd: number | null;
                                can_delegate: boolean;
                                /** @description From the root to this token, inclusive (its length is depth) */
                                chain: {
                                    agent_id: string;
                                    id: number;
                                }[];
                                circuit_breaker: {
                                    max_failed_requests: number;
                                    max_requests_per_minute: number;
                                    max_requests_total: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Alias of request_count */
                                current_request_count: number;
                                dead_mans_switch: {
                                    heartbeat_required_every: number;
                                } | null;
                                /** @description 1 for a token its person created */
                                depth: number;
                                /** Format: date-time */
                                expires_at: string;
                                failed_count: number;
                                granted_permissions: string[];
                                id: number;
                                /** Format: date-time */
                                last_heartbeat_at: string | null;
                                /** Format: date-time */
                                last_used_at: string | null;
                                /** @description The slug of the token's organization */
                                organization: string | null;
                                /** @description The token this one was delegated from */
                                parent_id: number | null;
                                request_count: number;
                                spend_usd: number;
                                /** @enum {string} */
                                status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                                suspended_reason: string | null;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/activity/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description An X-Prompt-Trace-ID value */
                    prompt_trace_id?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** @description The token's agent_id when the request was made */
                                agent_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @enum {string} */
                                decision: "allow" | "deny" | "pending";
                                /** @description SHA-256 (hex) of the row's canonical form */
                                hash: string | null;
                                id: number;
                                method: string;
                                /** @description The path called, without its query string */
                                path: string;
                                /** @description The permission the route checked, if any */
                                permission: string | null;
                                /** @description The hash of the trail row before it; null for the first */
                                prev_hash: string | null;
                                prompt_trace_id: string | null;
                                /** @description The row's place in its root token's trail (docs/agents.md "The trail") */
                                seq: number | null;
                                /** @description The HTTP status answered */
                                status: number;
                                /** @description The agent token that made the request */
                                token_id: number;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/activity/export/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description application/x-ndjson: the trail rows, then `{"type": "checkpoint", "jws": …}` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-ndjson": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/delegate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description The creation body of ai/tokens/; the child only narrows its parent (permissions, expiry, budget from what the parent has left, can_delegate), acts in its organization, and is at most SVC_AIRS_MAX_DELEGATION_DEPTH deep. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The agent's own name for itself */
                        agent_id: string;
                        /** @description Cumulative reported cost at which the token is suspended */
                        budget_limit_usd?: number | null;
                        /** @description The token may create narrower children for sub-agents (default false) */
                        can_delegate?: boolean;
                        circuit_breaker?: {
                            /** @description Consecutive denied requests before the token is suspended (default 10) */
                            max_failed_requests?: number;
                            /** @description With window_seconds: requests per window */
                            max_requests?: number;
                            /** @description Requests per minute before the token is suspended (default 60) */
                            max_requests_per_minute?: number;
                            /** @description Requests in the token's life before it is suspended (default 1000) */
                            max_requests_total?: number;
                            /** @description With max_requests: the window in seconds */
                            window_seconds?: number;
                        };
                        dead_mans_switch?: {
                            /** @description Seconds between heartbeats before the token is suspended */
                            heartbeat_required_every: number;
                        } | null;
                        /** @description Seconds, at most SVC_AIRS_MAX_TOKEN_LIFETIME (default 3600) */
                        expires_in?: number;
                        /** @description Slug: the token acts only there (and below it) */
                        organization?: string;
                        /** @default [] */
                        permissions?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent_id: string;
                            budget_limit_usd: number | null;
                            can_delegate: boolean;
                            chain: {
                                agent_id: string;
                                id: number;
                            }[];
                            depth: number;
                            /** Format: date-time */
                            expires_at: string;
                            granted_permissions: string[];
                            id: number;
                            organization: string | null;
                            parent_id: number;
                            /** @enum {string} */
                            status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                            token: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/heartbeat/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description The dead man's switch: a suspended token answers 403 AGENT_TOKEN_SUSPENDED with `reason`; a beat after the deadline suspends the token (HEARTBEAT_MISSING). */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            last_heartbeat_at: string;
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/report-usage/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Adds the cost (always recorded, also for a suspended token). While the spend is at or above the budget the answer is 403 `{error, code: "BUDGET_EXCEEDED", status: "suspended", spend_usd, budget_limit_usd}`. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        completion_tokens?: number;
                        /** @description What this call cost, in US dollars (kept to 8 decimals) */
                        cost_usd: number;
                        prompt_tokens?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            budget_limit_usd: number | null;
                            /** @description Budget left; null without a budget */
                            remaining_usd: number | null;
                            spend_usd: number;
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/resume/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked" | "suspended" | "active";
                            token: {
                                agent_id: string;
                                budget_limit_usd: number | null;
                                can_delegate: boolean;
                                /** @description From the root to this token, inclusive (its length is depth) */
                                chain: {
                                    agent_id: string;
                                    id: number;
                                }[];
                                circuit_breaker: {
                                    max_failed_requests: number;
                                    max_requests_per_minute: number;
                                    max_requests_total: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Alias of request_count */
                                current_request_count: number;
                                dead_mans_switch: {
                                    heartbeat_required_every: number;
                                } | null;
                                /** @description 1 for a token its person created */
                                depth: number;
                                /** Format: date-time */
                                expires_at: string;
                                failed_count: number;
                                granted_permissions: string[];
                                id: number;
                                /** Format: date-time */
                                last_heartbeat_at: string | null;
                                /** Format: date-time */
                                last_used_at: string | null;
                                /** @description The slug of the token's organization */
                                organization: string | null;
                                /** @description The token this one was delegated from */
                                parent_id: number | null;
                                request_count: number;
                                spend_usd: number;
                                /** @enum {string} */
                                status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                                suspended_reason: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/revoke/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked" | "suspended" | "active";
                            token: {
                                agent_id: string;
                                budget_limit_usd: number | null;
                                can_delegate: boolean;
                                /** @description From the root to this token, inclusive (its length is depth) */
                                chain: {
                                    agent_id: string;
                                    id: number;
                                }[];
                                circuit_breaker: {
                                    max_failed_requests: number;
                                    max_requests_per_minute: number;
                                    max_requests_total: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Alias of request_count */
                                current_request_count: number;
                                dead_mans_switch: {
                                    heartbeat_required_every: number;
                                } | null;
                                /** @description 1 for a token its person created */
                                depth: number;
                                /** Format: date-time */
                                expires_at: string;
                                failed_count: number;
                                granted_permissions: string[];
                                id: number;
                                /** Format: date-time */
                                last_heartbeat_at: string | null;
                                /** Format: date-time */
                                last_used_at: string | null;
                                /** @description The slug of the token's organization */
                                organization: string | null;
                                /** @description The token this one was delegated from */
                                parent_id: number | null;
                                request_count: number;
                                spend_usd: number;
                                /** @enum {string} */
                                status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                                suspended_reason: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/{id}/suspend/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked" | "suspended" | "active";
                            token: {
                                agent_id: string;
                                budget_limit_usd: number | null;
                                can_delegate: boolean;
                                /** @description From the root to this token, inclusive (its length is depth) */
                                chain: {
                                    agent_id: string;
                                    id: number;
                                }[];
                                circuit_breaker: {
                                    max_failed_requests: number;
                                    max_requests_per_minute: number;
                                    max_requests_total: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Alias of request_count */
                                current_request_count: number;
                                dead_mans_switch: {
                                    heartbeat_required_every: number;
                                } | null;
                                /** @description 1 for a token its person created */
                                depth: number;
                                /** Format: date-time */
                                expires_at: string;
                                failed_count: number;
                                granted_permissions: string[];
                                id: number;
                                /** Format: date-time */
                                last_heartbeat_at: string | null;
                                /** Format: date-time */
                                last_used_at: string | null;
                                /** @description The slug of the token's organization */
                                organization: string | null;
                                /** @description The token this one was delegated from */
                                parent_id: number | null;
                                request_count: number;
                                spend_usd: number;
                                /** @enum {string} */
                                status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                                suspended_reason: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ai/tokens/revoke-all/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            message: string;
                            /**
                             * @description docs/migrating-from-tenxyte.md: the Tenxyte SDK reads `{status, count}`
                             * @enum {string}
                             */
                            status: "revoked";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "applications/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    is_active?: boolean;
                    /** @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation. */
                    kind?: "confidential" | "public";
                    /** @description Sort by name, created_at, updated_at; prefix - for descending (default name) */
                    ordering?: "name" | "-name" | "created_at" | "-created_at" | "updated_at" | "-updated_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                access_key: string;
                                allowed_origins: string[];
                                /** Format: date-time */
                                created_at: string;
                                created_by: number | null;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /**
                                 * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                                 * @enum {string}
                                 */
                                kind: "confidential" | "public";
                                name: string;
                                /** @description Where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                                post_logout_redirect_uris: string[];
                                redirect_uris: string[];
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Bare origins (scheme://host[:port]) allowed to call the API from a browser; a public application needs at least one */
                        allowed_origins?: string[];
                        description?: string;
                        is_active?: boolean;
                        /**
                         * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                         * @enum {string}
                         */
                        kind?: "confidential" | "public";
                        name: string;
                        /** @description Absolute http(s) URLs, matched exactly, where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                        post_logout_redirect_uris?: string[];
                        /** @description Absolute http(s) URLs, matched exactly (social callbacks, magic-link validation_url) */
                        redirect_uris?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            application: {
                                access_key: string;
                                allowed_origins: string[];
                                /** Format: date-time */
                                created_at: string;
                                created_by: number | null;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /**
                                 * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                                 * @enum {string}
                                 */
                                kind: "confidential" | "public";
                                name: string;
                                /** @description Where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                                post_logout_redirect_uris: string[];
                                redirect_uris: string[];
                                /** Format: date-time */
                                updated_at: string;
                            };
                            /** @description Same as credentials.access_key */
                            client_id: string;
                            /** @description Same as credentials.access_secret */
                            client_secret: string | null;
                            credentials: {
                                access_key: string;
                                /** @description Shown once; null for a public application, which has no secret */
                                access_secret: string | null;
                            };
                            /** @description Same as application.id */
                            id: number;
                            message: string;
                            warning: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "applications/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_key: string;
                            allowed_origins: string[];
                            /** Format: date-time */
                            created_at: string;
                            created_by: number | null;
                            description: string;
                            id: number;
                            is_active: boolean;
                            /**
                             * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                             * @enum {string}
                             */
                            kind: "confidential" | "public";
                            name: string;
                            /** @description Where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description name is required; other fields left out keep their value */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Bare origins (scheme://host[:port]) allowed to call the API from a browser; a public application needs at least one */
                        allowed_origins?: string[];
                        description?: string;
                        is_active?: boolean;
                        /**
                         * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                         * @enum {string}
                         */
                        kind?: "confidential" | "public";
                        name: string;
                        /** @description Absolute http(s) URLs, matched exactly, where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                        post_logout_redirect_uris?: string[];
                        /** @description Absolute http(s) URLs, matched exactly (social callbacks, magic-link validation_url) */
                        redirect_uris?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_key: string;
                            allowed_origins: string[];
                            /** Format: date-time */
                            created_at: string;
                            created_by: number | null;
                            description: string;
                            id: number;
                            is_active: boolean;
                            /**
                             * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                             * @enum {string}
                             */
                            kind: "confidential" | "public";
                            name: string;
                            /** @description Where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Bare origins (scheme://host[:port]) allowed to call the API from a browser; a public application needs at least one */
                        allowed_origins?: string[];
                        description?: string;
                        is_active?: boolean;
                        /**
                         * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                         * @enum {string}
                         */
                        kind?: "confidential" | "public";
                        name?: string;
                        /** @description Absolute http(s) URLs, matched exactly, where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                        post_logout_redirect_uris?: string[];
                        /** @description Absolute http(s) URLs, matched exactly (social callbacks, magic-link validation_url) */
                        redirect_uris?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_key: string;
                            allowed_origins: string[];
                            /** Format: date-time */
                            created_at: string;
                            created_by: number | null;
                            description: string;
                            id: number;
                            is_active: boolean;
                            /**
                             * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                             * @enum {string}
                             */
                            kind: "confidential" | "public";
                            name: string;
                            /** @description Where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                            post_logout_redirect_uris: string[];
                            redirect_uris: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "applications/{id}/regenerate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Must be "REGENERATE" */
                        confirmation?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            application: {
                                access_key: string;
                                allowed_origins: string[];
                                /** Format: date-time */
                                created_at: string;
                                created_by: number | null;
                                description: string;
                                id: number;
                                is_active: boolean;
                                /**
                                 * @description `confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.
                                 * @enum {string}
                                 */
                                kind: "confidential" | "public";
                                name: string;
                                /** @description Where OAuth RP-initiated logout may send the person back (docs/oauth.md) */
                                post_logout_redirect_uris: string[];
                                redirect_uris: string[];
                                /** Format: date-time */
                                updated_at: string;
                            };
                            /** @description Same as credentials.access_key */
                            client_id: string;
                            /** @description Same as credentials.access_secret */
                            client_secret: string | null;
                            credentials: {
                                access_key: string;
                                /** @description Shown once; null for a public application, which has no secret */
                                access_secret: string | null;
                            };
                            /** @description Same as application.id */
                            id: number;
                            message: string;
                            warning: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cancel-account-deletion/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Only for a `deletion_pending` caller: its full-scope replacement */
                            access_token?: string;
                            account_reactivated: boolean;
                            /** Format: date-time */
                            cancellation_time: string;
                            /** @enum {boolean} */
                            deletion_cancelled: true;
                            expires_in?: number;
                            message: string;
                            refresh_expires_in?: number;
                            refresh_token?: string;
                            security_note: string;
                            /** @enum {string} */
                            token_type?: "Bearer";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "confirm-account-deletion/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The token of the confirmation email */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cancellation_instructions: string;
                            /** @enum {boolean} */
                            deletion_confirmed: true;
                            /** Format: date-time */
                            grace_period_ends: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dashboard/auth/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            charts: {
                                logins_per_day_7d: {
                                    /** Format: date */
                                    date: string;
                                    failed: number;
                                    /** @description Attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED: neither succeeded nor failed */
                                    second_step: number;
                                    success: number;
                                }[];
                            };
                            /** @description Successful sign-ins of the last 30 days by method: password, phone_password, otp, magic_link, passkey (always present) and social_<provider> */
                            login_by_method: {
                                [key: string]: number;
                            };
                            /** @description Sign-in attempts since midnight UTC, since Monday, since the first of the month */
                            login_stats: {
                                this_month: {
                                    /** @description Failed attempts, second steps not included */
                                    failed_count: number;
                                    /** @description Attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED: neither succeeded nor failed */
                                    second_step_count: number;
                                    success_count: number;
                                    /** @description success_count per 100 of success_count + failed_count, to two decimals */
                                    success_rate: number;
                                    /** @description Every attempt: success_count + failed_count + second_step_count */
                                    total: number;
                                };
                                this_week: {
                                    /** @description Failed attempts, second steps not included */
                                    failed_count: number;
                                    /** @description Attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED: neither succeeded nor failed */
                                    second_step_count: number;
                                    success_count: number;
                                    /** @description success_count per 100 of success_count + failed_count, to two decimals */
                                    success_rate: number;
                                    /** @description Every attempt: success_count + failed_count + second_step_count */
                                    total: number;
                                };
                                today: {
                                    /** @description Failed attempts, second steps not included */
                                    failed_count: number;
                                    /** @description Attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED: neither succeeded nor failed */
                                    second_step_count: number;
                                    success_count: number;
                                    /** @description success_count per 100 of success_count + failed_count, to two decimals */
                                    success_rate: number;
                                    /** @description Every attempt: success_count + failed_count + second_step_count */
                                    total: number;
                                };
                            };
                            registration_stats: {
                                this_month: number;
                                this_week: number;
                                today: number;
                            };
                            token_stats: {
                                /** @description Neither rotated, revoked nor expired */
                                active_refresh_tokens: number;
                                /** @description Blacklisted access tokens not expired yet */
                                blacklisted_tokens: number;
                                /** @description Live refresh tokens that reached their expiry since midnight UTC */
                                expired_today: number;
                            };
                            /** @description The ten most frequent reasons of failed attempts of the last 30 days (second steps are not failures) */
                            top_login_failure_reasons: {
                                count: number;
                                reason: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dashboard/gdpr/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data_exports: {
                                total_this_month: number;
                                total_today: number;
                            };
                            deletion_requests: {
                                by_status: {
                                    cancelled: number;
                                    completed: number;
                                    confirmation_sent: number;
                                    confirmed: number;
                                    pending: number;
                                };
                                /** @description Confirmed requests whose grace period ends within 7 days */
                                grace_period_expiring_7d: number;
                                total: number;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dashboard/organizations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: number;
                            /** @enum {boolean} */
                            enabled: true;
                            members: {
                                /** @description Active memberships per organization, to two decimals */
                                avg_per_org: number;
                                by_role: {
                                    admin: number;
                                    member: number;
                                    owner: number;
                                };
                                /** @description Active memberships */
                                total: number;
                            };
                            /** @description The ten organizations with the most active members */
                            top_organizations: {
                                members: number;
                                name: string;
                                slug: string;
                            }[];
                            total_organizations: number;
                            /** @description Organizations with at least one sub-organization */
                            with_sub_orgs: number;
                        } | {
                            /** @enum {boolean} */
                            enabled: false;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dashboard/security/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account_security: {
                                /** @description Accounts with 2FA per 100 accounts, to two decimals */
                                "2fa_adoption_rate": number;
                                banned_accounts: number;
                                locked_accounts: number;
                                password_changes_today: number;
                            };
                            /** @description Audit events of the last 24 hours */
                            audit_summary_24h: {
                                by_event_type: {
                                    [key: string]: number;
                                };
                                by_severity: {
                                    critical: number;
                                    info: number;
                                    warning: number;
                                };
                                total: number;
                            };
                            /** @description Blacklisted access tokens not expired yet */
                            blacklisted_tokens: number;
                            suspicious_activity: {
                                /** @description Failed sign-in attempts of the last 7 days */
                                last_7d: number;
                                /** @description Failed sign-in attempts of the last 24 hours */
                                last_24h: number;
                                /** @description The ten addresses with the most failed attempts in the last 24 hours */
                                top_ips: {
                                    events: number;
                                    ip_address: string;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "dashboard/stats/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description With X-Org-Slug (SVC_ORGANIZATIONS_ENABLED on; the caller needs org.view there) the figures count that organization's active members only: 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER where the caller holds no role, 403 INSUFFICIENT_PERMISSIONS without org.view. */
        get: {
            parameters: {
                query?: {
                    /** @description Each trend also for the period before, and the change */
                    compare?: boolean;
                    /** @description The UTC days ending today (today up to now) */
                    period?: "7d" | "30d" | "90d";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            charts: {
                                /** @description Successful sign-ins per UTC day of the period */
                                daily_logins: {
                                    count: number;
                                    /**
                                     * Format: date
                                     * @description A UTC day
                                     */
                                    date: string;
                                }[];
                                /** @description Security incidents per UTC day of the period */
                                security_events: {
                                    count: number;
                                    /**
                                     * Format: date
                                     * @description A UTC day
                                     */
                                    date: string;
                                }[];
                                /** @description Accounts created per UTC day of the period */
                                user_registrations: {
                                    count: number;
                                    /**
                                     * Format: date
                                     * @description A UTC day
                                     */
                                    date: string;
                                }[];
                            };
                            organization_context: {
                                id: number;
                                name: string;
                                slug: string;
                            } | null;
                            period: {
                                /** Format: date-time */
                                end: string;
                                name: string;
                                /** Format: date-time */
                                previous_end?: string;
                                /** Format: date-time */
                                previous_start?: string;
                                /** Format: date-time */
                                start: string;
                            };
                            summary: {
                                /** @description Sessions neither revoked nor expired */
                                active_sessions: number;
                                /** @description Accounts with a successful sign-in during the period */
                                active_users: number;
                                /** @description Deletion requests pending, with confirmation sent, or confirmed */
                                pending_deletions: number;
                                total_applications: number;
                                total_organizations: number;
                                /** @description Accounts not deleted */
                                total_users: number;
                            };
                            trends: {
                                /** @description Applications with at least one successful sign-in during the period */
                                application_usage: number | {
                                    /** @description Relative change to two decimals: 0 when both are 0, null when only the previous is */
                                    change_percent: number | null;
                                    current: number;
                                    previous: number;
                                };
                                /** @description Sign-in attempts answered 2FA_REQUIRED or ADMIN_2FA_SETUP_REQUIRED during the period: neither succeeded nor failed */
                                login_second_steps: number | {
                                    /** @description Relative change to two decimals: 0 when both are 0, null when only the previous is */
                                    change_percent: number | null;
                                    current: number;
                                    previous: number;
                                };
                                /** @description Successful sign-in attempts per 100 successful or failed attempts during the period (second steps left out) */
                                login_success_rate: number | {
                                    /** @description Relative change to two decimals: 0 when both are 0, null when only the previous is */
                                    change_percent: number | null;
                                    current: number;
                                    previous: number;
                                };
                                /** @description Accounts locked, refresh tokens reused, agent tokens suspended by their breakers */
                                security_incidents: number | {
                                    /** @description Relative change to two decimals: 0 when both are 0, null when only the previous is */
                                    change_percent: number | null;
                                    current: number;
                                    previous: number;
                                };
                                /** @description Accounts created during the period */
                                user_growth: number | {
                                    /** @description Relative change to two decimals: 0 when both are 0, null when only the previous is */
                                    change_percent: number | null;
                                    current: number;
                                    previous: number;
                                };
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "export-user-data/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Everything stored about the caller's account, as JSON, for the current password. Closed to agents; a `deletion_pending` token may call it. A wrong password answers 400 with details.password and counts toward the lockout. Limited to 3 exports an hour. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The account's current password */
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agent_tokens: {
                                agent_id: string;
                                budget_limit_usd: number | null;
                                can_delegate: boolean;
                                /** @description From the root to this token, inclusive (its length is depth) */
                                chain: {
                                    agent_id: string;
                                    id: number;
                                }[];
                                circuit_breaker: {
                                    max_failed_requests: number;
                                    max_requests_per_minute: number;
                                    max_requests_total: number;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description Alias of request_count */
                                current_request_count: number;
                                dead_mans_switch: {
                                    heartbeat_required_every: number;
                                } | null;
                                /** @description 1 for a token its person created */
                                depth: number;
                                /** Format: date-time */
                                expires_at: string;
                                failed_count: number;
                                granted_permissions: string[];
                                id: number;
                                /** Format: date-time */
                                last_heartbeat_at: string | null;
                                /** Format: date-time */
                                last_used_at: string | null;
                                /** @description The slug of the token's organization */
                                organization: string | null;
                                /** @description The token this one was delegated from */
                                parent_id: number | null;
                                request_count: number;
                                spend_usd: number;
                                /** @enum {string} */
                                status: "ACTIVE" | "SUSPENDED" | "REVOKED" | "EXPIRED";
                                suspended_reason: string | null;
                            }[];
                            applications: {
                                active_sessions: number;
                                /** Format: date-time */
                                first_signed_in_at: string;
                                id: number;
                                /** Format: date-time */
                                last_used_at: string;
                                name: string | null;
                            }[];
                            audit_logs: {
                                /** @description Who acted, when it was another account (an administrator) */
                                actor: number | null;
                                /** @description The agent token of an agent request (its id) */
                                agent_token_id: number | null;
                                application: number | null;
                                /** Format: date-time */
                                created_at: string;
                                details: {
                                    [key: string]: unknown;
                                };
                                event_type: string;
                                id: string;
                                ip_address: string | null;
                                severity: string;
                                user_agent: string | null;
                            }[];
                            deletion_requests: {
                                /** Format: date-time */
                                cancelled_at: string | null;
                                /** Format: date-time */
                                completed_at: string | null;
                                /** Format: date-time */
                                confirmed_at: string | null;
                                /** Format: date-time */
                                grace_period_ends_at: string;
                                id: number;
                                ip_address: string | null;
                                reason: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @description pending, confirmation_sent, confirmed, completed or cancelled */
                                status: string;
                            }[];
                            devices: {
                                active_sessions: number;
                                device_id: string;
                                device_info: string | null;
                                device_summary: string | null;
                                /** Format: date-time */
                                first_seen_at: string;
                                /** Format: date-time */
                                last_used_at: string;
                                sessions: number;
                            }[];
                            export_metadata: {
                                data_retention_policy: {
                                    audit_ip_addresses_purged_on_deletion: boolean;
                                    deletion_grace_period_days: number;
                                    description: string;
                                    ended_sessions_days: number;
                                    login_attempts_days: number;
                                };
                                /** @enum {string} */
                                export_format: "json";
                                /** Format: date-time */
                                exported_at: string;
                                record_limits: {
                                    audit_logs: {
                                        /** @description At most this many of the most recent records are exported */
                                        limit: number;
                                        /** @description Older records exist beyond the limit */
                                        truncated: boolean;
                                    };
                                    login_attempts: {
                                        /** @description At most this many of the most recent records are exported */
                                        limit: number;
                                        /** @description Older records exist beyond the limit */
                                        truncated: boolean;
                                    };
                                };
                                /** @description The account itself plus every record of every list */
                                total_records: number;
                            };
                            login_attempts: {
                                application: number | null;
                                /** Format: date-time */
                                created_at: string;
                                failure_reason: string | null;
                                id: string;
                                identifier: string;
                                ip_address: string | null;
                                method: string;
                                success: boolean;
                            }[];
                            organizations: {
                                /** Format: date-time */
                                joined_at: string;
                                organization: {
                                    id: number;
                                    name: string;
                                    slug: string;
                                };
                                role: {
                                    code: string;
                                    name: string;
                                };
                                status: string;
                            }[];
                            passkeys: {
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                /** Format: date-time */
                                last_used_at: string | null;
                                name: string | null;
                            }[];
                            permissions: {
                                code: string;
                                description: string;
                                /** Format: date-time */
                                granted_at: string | null;
                                id: string;
                                /** @description Granted to the account itself (otherwise held through a role or a parent permission) */
                                is_direct: boolean;
                                name: string;
                            }[];
                            roles: {
                                /** Format: date-time */
                                assigned_at: string;
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            sessions: {
                                application: number | null;
                                /** Format: date-time */
                                created_at: string;
                                device_id: string;
                                device_info: string | null;
                                device_summary: string | null;
                                /** Format: date-time */
                                expires_at: string;
                                id: string;
                                ip_address: string | null;
                                is_active: boolean;
                                /** Format: date-time */
                                last_used_at: string;
                                revoke_reason: string | null;
                                /** Format: date-time */
                                revoked_at: string | null;
                                user_agent: string | null;
                            }[];
                            social_accounts: {
                                email: string | null;
                                id: number;
                                /** Format: date-time */
                                last_login_at: string | null;
                                /** Format: date-time */
                                linked_at: string;
                                provider: string;
                                /** @description The provider's identifier of the person */
                                subject: string;
                            }[];
                            user_info: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password: boolean;
                                id: number;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                is_staff: boolean;
                                is_superuser: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                must_change_password: boolean;
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                timezone: string | null;
                                /** Format: date-time */
                                updated_at: string;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "jwks/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The keys that verify access tokens (the signing key first, then those still verifying), then the OpenID Provider's own keys once it has some. Empty with HS256 alone. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                alg: string;
                                crv?: string;
                                e?: string;
                                kid: string;
                                kty: string;
                                n?: string;
                                use: string;
                                x?: string;
                                y?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "login/email/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        device_info?: string;
                        email: string;
                        password: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            must_change_password: boolean;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "login/otp/request/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        phone_country_code: string;
                        phone_number: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            channel: "sms";
                            /** Format: date-time */
                            expires_at: string;
                            message: string;
                            otp_id: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "login/otp/verify/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        device_info?: string;
                        otp_code: string;
                        phone_country_code: string;
                        phone_number: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            must_change_password: boolean;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "login/phone/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        device_info?: string;
                        password: string;
                        phone_country_code: string;
                        phone_number: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            must_change_password: boolean;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "logout/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refresh_token?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "logout/all/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            devices_logged_out: number;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "magic-link/request/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        validation_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "magic-link/verify/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    device_info?: string;
                    token?: string;
                    totp_code?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            message: string;
                            must_change_password: boolean;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "me/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description With X-Org-Slug (SVC_ORGANIZATIONS_ENABLED on), organization_context holds the caller's effective role and permissions there: 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER where the caller holds no role. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            avatar: string | null;
                            bio: string | null;
                            custom_fields: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            date_joined: string;
                            email: string | null;
                            first_name: string;
                            id: number;
                            is_active: boolean;
                            is_verified: boolean;
                            language: string | null;
                            /** Format: date-time */
                            last_login: string | null;
                            last_name: string;
                            organization_context: {
                                current_org: {
                                    id: number;
                                    name: string;
                                    slug: string;
                                } | null;
                                /** @description The effective organization permissions: those of every role held there or above */
                                permissions: string[];
                                /** @description The effective organization role: the heaviest held there or above */
                                roles: string[];
                            };
                            phone: string | null;
                            preferences: {
                                email_notifications: boolean;
                                marketing_emails: boolean;
                                sms_notifications: boolean;
                                two_factor_enabled: boolean;
                            };
                            timezone: string | null;
                            username: string | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** @description A JSON body, or `multipart/form-data` with a file part `avatar` (PNG, JPEG or WebP by its bytes, at most 2 MB) and the same fields as text parts (`custom_fields` as JSON text). The avatar is served at `/media/avatars/<name>` and its URL answered in `user.avatar` and `avatar`. Unknown parts, a second file or another kind of file answer 400. Changing `phone` needs a sign-in within SVC_REAUTH_MAX_AGE, or `password` (and `totp_code` with 2FA) in the body: else 403 REAUTHENTICATION_REQUIRED. */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        bio?: string | null;
                        custom_fields?: {
                            [key: string]: unknown;
                        } | null;
                        first_name?: string;
                        language?: string | null;
                        last_name?: string;
                        /** @description The account password, needed when the sign-in is older than SVC_REAUTH_MAX_AGE */
                        password?: string;
                        phone?: string | null;
                        timezone?: string | null;
                        /** @description With two-factor authentication on, a TOTP or backup code, sent with `password` */
                        totp_code?: string;
                        username?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description With an uploaded avatar only: its URL, as in `user.avatar` (the Tenxyte SDK reads the answer as a user) */
                            avatar?: string | null;
                            message: string;
                            updated_fields: string[];
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                /** Format: date-time */
                                date_joined: string;
                                email: string | null;
                                first_name: string;
                                id: number;
                                is_active: boolean;
                                is_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                organization_context: {
                                    current_org: {
                                        id: number;
                                        name: string;
                                        slug: string;
                                    } | null;
                                    /** @description The effective organization permissions: those of every role held there or above */
                                    permissions: string[];
                                    /** @description The effective organization role: the heaviest held there or above */
                                    roles: string[];
                                };
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                    two_factor_enabled: boolean;
                                };
                                timezone: string | null;
                                username: string | null;
                            };
                            verification_required: {
                                email_changed: boolean;
                                phone_changed: boolean;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "me/grants/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    page?: number;
                    page_size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                client_id: string;
                                client_name: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description What ai/authorize/ counts this grant's access tokens against; null for a grant without a resource */
                                delegation: {
                                    /** @description The delegation in ai/agent-tokens/: its usage, limits and pending actions */
                                    agent_token_id: number;
                                    budget_limit_usd: number | null;
                                    /** Format: date-time */
                                    expires_at: string;
                                    max_requests_per_minute: number;
                                } | null;
                                /** @description The grant's id */
                                id: string;
                                /** @description The organization slug it is bound to */
                                organization: string | null;
                                /** @description The API its access tokens are for; null: userinfo only */
                                resource: string | null;
                                scopes: string[];
                                /** @description Its delegation's state (docs/oauth.md "Grants and ai/authorize/"): suspended by a breaker or by the person, revoked or expired; a grant without a resource is active while it lasts */
                                status: "active" | "suspended" | "revoked" | "expired";
                                /** @description False for clients registered dynamically or by a metadata document */
                                verified: boolean;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "me/grants/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "me/roles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description With X-Org-Slug (SVC_ORGANIZATIONS_ENABLED on), organization_context holds the caller's effective role and permissions there: 404 ORG_NOT_FOUND for an unknown slug, 403 NOT_MEMBER where the caller holds no role. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            organization_context?: {
                                current_org: {
                                    id: number;
                                    name: string;
                                    slug: string;
                                } | null;
                                /** @description The effective organization permissions: those of every role held there or above */
                                permissions: string[];
                                /** @description The effective organization role: the heaviest held there or above */
                                roles: string[];
                            };
                            permissions: string[];
                            roles: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "me/social-accounts/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    page?: number;
                    page_size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** @description The verified address the provider gave */
                                email: string | null;
                                id: number;
                                /** Format: date-time */
                                last_login_at: string | null;
                                /** Format: date-time */
                                linked_at: string;
                                /** @description The configured provider name (`google`, `github`, …) */
                                provider: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "me/social-accounts/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "oauth/resources/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            results: {
                                /** @description Its credentials for introspection (RFC 7662) */
                                client_id: string;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                name: string;
                                scopes: string[];
                                uri: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description The permission codes this API accepts: its tokens carry what was granted among them */
                        scopes?: string[];
                        /** @description The API's URI, the audience of its tokens: an https URL (http on loopback), without fragment */
                        uri: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            credentials: {
                                client_id: string;
                                /** @description Shown once */
                                client_secret: string;
                            };
                            resource: {
                                /** @description Its credentials for introspection (RFC 7662) */
                                client_id: string;
                                /** Format: date-time */
                                created_at: string;
                                id: number;
                                name: string;
                                scopes: string[];
                                uri: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "oauth/resources/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Its credentials for introspection (RFC 7662) */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            id: number;
                            name: string;
                            scopes: string[];
                            uri: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description The permission codes this API accepts: its tokens carry what was granted among them */
                        scopes?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Its credentials for introspection (RFC 7662) */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            id: number;
                            name: string;
                            scopes: string[];
                            uri: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "org-roles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            is_system_role: boolean;
                            name: string;
                            permissions: {
                                code: string;
                                description: string;
                                name: string;
                            }[];
                            weight: number;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    is_active?: boolean;
                    /** @description Sort by name, slug, created_at; prefix - for descending (default name) */
                    ordering?: "name" | "-name" | "slug" | "-slug" | "created_at" | "-created_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description `null` for roots, or a parent id */
                    parent?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                max_members: number;
                                member_count: number;
                                name: string;
                                slug: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description 0: no limit */
                        max_members?: number;
                        /** @description A JSON object of at most 16 KiB */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name: string;
                        parent_id?: number | null;
                        /** @description Lower-case letters, digits and inner hyphens, 2 to 50 characters */
                        slug: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                id: number;
                                name: string;
                                slug: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: number;
                            is_active: boolean;
                            max_members: number;
                            member_count: number;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            parent: {
                                id: number;
                                name: string;
                                slug: string;
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            user_permissions: string[];
                            user_role: string | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/{slug}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                id: number;
                                name: string;
                                slug: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: number;
                            is_active: boolean;
                            max_members: number;
                            member_count: number;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            parent: {
                                id: number;
                                name: string;
                                slug: string;
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            user_permissions: string[];
                            user_role: string | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            /** @description Fields left out keep their value; parent_id moves the organization (null: makes it a root) */
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        is_active?: boolean;
                        /** @description 0: no limit */
                        max_members?: number;
                        /** @description A JSON object of at most 16 KiB */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                        parent_id?: number | null;
                        /** @description Lower-case letters, digits and inner hyphens, 2 to 50 characters */
                        slug?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                id: number;
                                name: string;
                                slug: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: number;
                            is_active: boolean;
                            max_members: number;
                            member_count: number;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            parent: {
                                id: number;
                                name: string;
                                slug: string;
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            user_permissions: string[];
                            user_role: string | null;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "organizations/{slug}/invitations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        /** @default 7 */
                        expires_in_days?: number;
                        /** @description `admin` or `member` (default); `owner` cannot be invited */
                        role_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            id: number;
                            invited_by: {
                                email: string | null;
                                first_name: string;
                                id: number;
                                last_name: string;
                            } | null;
                            organization: {
                                id: number;
                                name: string;
                                slug: string;
                            };
                            role: string;
                            role_display: string;
                            /** @enum {string} */
                            status: "pending" | "accepted" | "declined" | "expired" | "revoked";
                            token: string | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/{slug}/members/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description Sort by joined_at, user.email, role; prefix - for descending (default joined_at) */
                    ordering?: "joined_at" | "-joined_at" | "user.email" | "-user.email" | "role" | "-role";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    role?: "owner" | "admin" | "member";
                    search?: string;
                    status?: "active" | "inactive" | "pending";
                };
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                effective_permissions: string[];
                                email: string | null;
                                first_name: string;
                                id: number;
                                inherited_permissions: string[];
                                /** Format: date-time */
                                joined_at: string;
                                last_name: string;
                                permissions: string[];
                                role: {
                                    code: string;
                                    name: string;
                                };
                                role_display: string;
                                status: string;
                                user: {
                                    email: string | null;
                                    first_name: string;
                                    id: number;
                                    last_name: string;
                                };
                                user_id: number;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `owner`, `admin` or `member` */
                        role_code?: string;
                        user_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            effective_permissions: string[];
                            email: string | null;
                            first_name: string;
                            id: number;
                            inherited_permissions: string[];
                            /** Format: date-time */
                            joined_at: string;
                            last_name: string;
                            permissions: string[];
                            role: {
                                code: string;
                                name: string;
                            };
                            role_display: string;
                            status: string;
                            user: {
                                email: string | null;
                                first_name: string;
                                id: number;
                                last_name: string;
                            };
                            user_id: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/{slug}/members/{user_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `owner`, `admin` or `member` */
                        role_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            effective_permissions: string[];
                            email: string | null;
                            first_name: string;
                            id: number;
                            inherited_permissions: string[];
                            /** Format: date-time */
                            joined_at: string;
                            last_name: string;
                            permissions: string[];
                            role: {
                                code: string;
                                name: string;
                            };
                            role_display: string;
                            status: string;
                            /** Format: date-time */
                            updated_at: string;
                            user: {
                                email: string | null;
                                first_name: string;
                                id: number;
                                last_name: string;
                            };
                            user_id: number;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "organizations/{slug}/tree/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                children: {
                                    children: {
                                        children: {
                                            children: {
                                                children: Record<string, never>[];
                                                depth: number;
                                                id: number;
                                                is_root: boolean;
                                                member_count: number;
                                                name: string;
                                                slug: string;
                                            }[];
                                            depth: number;
                                            id: number;
                                            is_root: boolean;
                                            member_count: number;
                                            name: string;
                                            slug: string;
                                        }[];
                                        depth: number;
                                        id: number;
                                        is_root: boolean;
                                        member_count: number;
                                        name: string;
                                        slug: string;
                                    }[];
                                    depth: number;
                                    id: number;
                                    is_root: boolean;
                                    member_count: number;
                                    name: string;
                                    slug: string;
                                }[];
                                depth: number;
                                id: number;
                                is_root: boolean;
                                member_count: number;
                                name: string;
                                slug: string;
                            }[];
                            depth: number;
                            id: number;
                            is_root: boolean;
                            member_count: number;
                            name: string;
                            slug: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/delete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/detail/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                id: number;
                                name: string;
                                slug: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: number;
                            is_active: boolean;
                            max_members: number;
                            member_count: number;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            parent: {
                                id: number;
                                name: string;
                                slug: string;
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            user_permissions: string[];
                            user_role: string | null;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/invitations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description A pending invitation past its expiry is `expired` */
                    status?: "pending" | "accepted" | "declined" | "expired" | "revoked";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: number;
                                invited_by: {
                                    email: string | null;
                                    first_name: string;
                                    id: number;
                                    last_name: string;
                                } | null;
                                organization: {
                                    id: number;
                                    name: string;
                                    slug: string;
                                };
                                role: string;
                                role_display: string;
                                /** @enum {string} */
                                status: "pending" | "accepted" | "declined" | "expired" | "revoked";
                                token: string | null;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        /** @default 7 */
                        expires_in_days?: number;
                        /** @description `admin` or `member` (default); `owner` cannot be invited */
                        role_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            id: number;
                            invited_by: {
                                email: string | null;
                                first_name: string;
                                id: number;
                                last_name: string;
                            } | null;
                            organization: {
                                id: number;
                                name: string;
                                slug: string;
                            };
                            role: string;
                            role_display: string;
                            /** @enum {string} */
                            status: "pending" | "accepted" | "declined" | "expired" | "revoked";
                            token: string | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/invitations/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/invitations/accept/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            organization: {
                                id: number;
                                name: string;
                                slug: string;
                            };
                            role: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/invitations/decline/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/list/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    is_active?: boolean;
                    /** @description Sort by name, slug, created_at; prefix - for descending (default name) */
                    ordering?: "name" | "-name" | "slug" | "-slug" | "created_at" | "-created_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description `null` for roots, or a parent id */
                    parent?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: number;
                                is_active: boolean;
                                max_members: number;
                                member_count: number;
                                name: string;
                                slug: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/members/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description Sort by joined_at, user.email, role; prefix - for descending (default joined_at) */
                    ordering?: "joined_at" | "-joined_at" | "user.email" | "-user.email" | "role" | "-role";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    role?: "owner" | "admin" | "member";
                    search?: string;
                    status?: "active" | "inactive" | "pending";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                effective_permissions: string[];
                                id: number;
                                inherited_permissions: string[];
                                /** Format: date-time */
                                joined_at: string;
                                permissions: string[];
                                role: string;
                                role_display: string;
                                status: string;
                                user: {
                                    email: string | null;
                                    first_name: string;
                                    id: number;
                                    last_name: string;
                                };
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/members/{user_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `owner`, `admin` or `member` */
                        role_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: number;
                            role: string;
                            role_display: string;
                            /** Format: date-time */
                            updated_at: string;
                            user: {
                                email: string | null;
                                first_name: string;
                                id: number;
                                last_name: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "organizations/members/{user_id}/remove/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/members/add/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `owner`, `admin` or `member` */
                        role_code?: string;
                        user_id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            effective_permissions: string[];
                            id: number;
                            inherited_permissions: string[];
                            /** Format: date-time */
                            joined_at: string;
                            permissions: string[];
                            role: string;
                            role_display: string;
                            status: string;
                            user: {
                                email: string | null;
                                first_name: string;
                                id: number;
                                last_name: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/roles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            is_system_role: boolean;
                            name: string;
                            permissions: {
                                code: string;
                                description: string;
                                name: string;
                            }[];
                            weight: number;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/tree/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                children: {
                                    children: {
                                        children: {
                                            children: {
                                                children: Record<string, never>[];
                                                depth: number;
                                                id: number;
                                                is_root: boolean;
                                                member_count: number;
                                                name: string;
                                                slug: string;
                                            }[];
                                            depth: number;
                                            id: number;
                                            is_root: boolean;
                                            member_count: number;
                                            name: string;
                                            slug: string;
                                        }[];
                                        depth: number;
                                        id: number;
                                        is_root: boolean;
                                        member_count: number;
                                        name: string;
                                        slug: string;
                                    }[];
                                    depth: number;
                                    id: number;
                                    is_root: boolean;
                                    member_count: number;
                                    name: string;
                                    slug: string;
                                }[];
                                depth: number;
                                id: number;
                                is_root: boolean;
                                member_count: number;
                                name: string;
                                slug: string;
                            }[];
                            depth: number;
                            id: number;
                            is_root: boolean;
                            member_count: number;
                            name: string;
                            slug: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "organizations/update/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description Fields left out keep their value; parent_id moves the organization (null: makes it a root) */
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        is_active?: boolean;
                        /** @description 0: no limit */
                        max_members?: number;
                        /** @description A JSON object of at most 16 KiB */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        name?: string;
                        parent_id?: number | null;
                        /** @description Lower-case letters, digits and inner hyphens, 2 to 50 characters */
                        slug?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                id: number;
                                name: string;
                                slug: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: number;
                            is_active: boolean;
                            max_members: number;
                            member_count: number;
                            metadata: {
                                [key: string]: unknown;
                            };
                            name: string;
                            parent: {
                                id: number;
                                name: string;
                                slug: string;
                            } | null;
                            slug: string;
                            /** Format: date-time */
                            updated_at: string;
                            user_permissions: string[];
                            user_role: string | null;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "otp/request/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        otp_type?: "email" | "phone";
                        purpose?: "verify" | "password_change";
                        /** @description Alias of otp_type: email_verification is email, phone_verification is phone */
                        type?: "email_verification" | "phone_verification";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: "email" | "sms";
                            /** Format: date-time */
                            expires_at: string;
                            masked_recipient: string;
                            message: string;
                            otp_id: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "otp/verify/email/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email_verified: boolean;
                            message: string;
                            /** Format: date-time */
                            verified_at: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "otp/verify/phone/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            phone_number: string;
                            phone_verified: boolean;
                            /** Format: date-time */
                            verified_at: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "password/change/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        current_password?: string;
                        new_password: string;
                        otp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token?: string;
                            expires_in?: number;
                            message: string;
                            password_strength: string;
                            refresh_expires_in?: number;
                            refresh_token?: string;
                            sessions_revoked: number;
                            /** @enum {string} */
                            token_type?: "Bearer";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "password/requirements/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            max_length: number;
                            min_length: number;
                            requirements: {
                                min_length: number;
                                require_lowercase: boolean;
                                require_numbers: boolean;
                                require_special: boolean;
                                require_uppercase: boolean;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "password/reset/confirm/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        confirm_password?: string;
                        email?: string;
                        new_password: string;
                        otp_code: string;
                        phone_country_code?: string;
                        phone_number?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            password_safe: boolean;
                            tokens_revoked: number;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "password/reset/request/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email?: string;
                        phone_country_code?: string;
                        phone_number?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channel: "email" | "sms";
                            /** Format: date-time */
                            expires_at: string;
                            message: string;
                            otp_id: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "password/set-initial/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        new_password: string;
                        otp_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token?: string;
                            expires_in?: number;
                            message: string;
                            refresh_expires_in?: number;
                            refresh_token?: string;
                            /** @enum {string} */
                            token_type?: "Bearer";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "password/strength/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email?: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            errors: string[];
                            is_valid: boolean;
                            requirements: {
                                min_length: number;
                                require_lowercase: boolean;
                                require_numbers: boolean;
                                require_special: boolean;
                                require_uppercase: boolean;
                            };
                            score: number;
                            strength: "very_weak" | "weak" | "fair" | "strong" | "very_strong";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "permissions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description Sort by code, name, created_at; prefix - for descending (default code) */
                    ordering?: "code" | "-code" | "name" | "-name" | "created_at" | "-created_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    /** @description `null` for roots, or a parent id */
                    parent?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Lower-case letters, digits, _ - : in dot-separated parts */
                        code: string;
                        description?: string;
                        name: string;
                        parent_code?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                code: string;
                                id: string;
                            }[];
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            parent: {
                                code: string;
                                id: string;
                            } | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "permissions/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                code: string;
                                id: string;
                            }[];
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            parent: {
                                code: string;
                                id: string;
                            } | null;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Fields left out keep their value; parent_code null makes the permission a root */
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        name?: string;
                        parent_code?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            children: {
                                code: string;
                                id: string;
                            }[];
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            parent: {
                                code: string;
                                id: string;
                            } | null;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refresh/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refresh_token?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Same as `access_token` (the Tenxyte SDK reads this name) */
                            access: string;
                            access_token: string;
                            expires_in: number;
                            must_change_password: boolean;
                            /** @description Same as `refresh_token`, when that is in the body */
                            refresh?: string;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "register/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        device_info?: string;
                        email?: string;
                        first_name?: string;
                        last_name?: string;
                        /** @default false */
                        login?: boolean;
                        password: string;
                        phone_country_code?: string;
                        phone_number?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token?: string;
                            device_id?: string;
                            device_summary?: string | null;
                            expires_in?: number;
                            message: string;
                            must_change_password?: boolean;
                            refresh_expires_in?: number;
                            refresh_token?: string;
                            session_id?: string;
                            /** @enum {string} */
                            token_type?: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                            verification_required: {
                                email: boolean;
                                phone: boolean;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "request-account-deletion/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A TOTP or backup code; required when 2FA is on */
                        otp_code?: string;
                        password: string;
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description A reference to the request, not a credential */
                            cancellation_token: string;
                            data_retention_policy: {
                                anonymization_after: string;
                                final_deletion_after: string;
                            };
                            deletion_request_id: number;
                            grace_period_days: number;
                            message: string;
                            /** Format: date-time */
                            scheduled_deletion_date: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "roles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    is_default?: boolean;
                    /** @description Sort by code, name, created_at; prefix - for descending (default name) */
                    ordering?: "code" | "-code" | "name" | "-name" | "created_at" | "-created_at";
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                code: string;
                                id: string;
                                is_default: boolean;
                                name: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Lower-case letters, digits, _ - : in dot-separated parts; when left out, derived from name (lower-cased, each run of other characters as one _) */
                        code?: string;
                        description?: string;
                        is_default?: boolean;
                        name: string;
                        permission_codes?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            is_default: boolean;
                            name: string;
                            permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "roles/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            is_default: boolean;
                            name: string;
                            permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Fields left out keep their value; permission_codes, when given, is the complete new set */
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        is_default?: boolean;
                        name?: string;
                        permission_codes?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            code: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            is_default: boolean;
                            name: string;
                            permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "roles/{id}/permissions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            role_code: string;
                            role_id: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permission_codes: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            added: string[];
                            already_assigned?: string[];
                            message: string;
                            permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            role_code: string;
                        };
                    };
                };
            };
        };
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permission_codes: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            not_assigned?: string[];
                            permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            removed: string[];
                            role_code: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "social/{provider}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    provider: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        access_token?: string;
                        authorization_code?: string;
                        code?: string;
                        code_verifier?: string;
                        device_info?: string;
                        id_token?: string;
                        /** @description From the browser flow's `error=2FA_REQUIRED` redirect; send with totp_code */
                        mfa_token?: string;
                        nonce?: string;
                        redirect_uri?: string;
                        totp_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            is_new_user: boolean;
                            message: string;
                            must_change_password: boolean;
                            /** @description The configured provider name (`google`, …), never its `provider_*` alias */
                            provider: string;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "social/{provider}/authorize/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Starts the browser flow: 302 to the provider. Needs `access_key` (no secret) and one of the application's redirect URIs. */
        get: {
            parameters: {
                query?: {
                    access_key?: string;
                    redirect_uri?: string;
                };
                header?: never;
                path: {
                    provider: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "social/{provider}/callback/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description With application headers, `code` and `redirect_uri`: 200 like POST social/<provider>/ (with the provider's `error`: 400 CALLBACK_ERROR, `details` holding `error` and `error_description`). From the provider in the browser flow (no application headers, `state`): 302 to the application's redirect URI with the tokens or `error=<CODE>`. */
        get: {
            parameters: {
                query?: {
                    code?: string;
                    code_verifier?: string;
                    error?: string;
                    error_description?: string;
                    iss?: string;
                    redirect_uri?: string;
                    scope?: string;
                    state?: string;
                };
                header?: never;
                path: {
                    provider: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            is_new_user: boolean;
                            message: string;
                            must_change_password: boolean;
                            /** @description The configured provider name (`google`, …), never its `provider_*` alias */
                            provider: string;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "users/{id}/permissions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Effective codes: roles, direct grants and descendants of held parents */
                            all_permissions: string[];
                            direct_permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            email: string | null;
                            user_id: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permission_codes: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            added: string[];
                            already_assigned?: string[];
                            direct_permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            message: string;
                            user_id: number;
                        };
                    };
                };
            };
        };
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permission_codes: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            direct_permissions: {
                                code: string;
                                description: string;
                                id: string;
                                name: string;
                            }[];
                            message: string;
                            not_assigned?: string[];
                            removed: string[];
                            user_id: number;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "users/{id}/roles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            roles: {
                                code: string;
                                id: string;
                                is_default: boolean;
                                name: string;
                            }[];
                            user_id: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        role_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            roles: string[];
                        };
                    };
                };
            };
        };
        delete: {
            parameters: {
                query?: {
                    /** @description Required: the role to remove */
                    role_code?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            roles: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webauthn/authenticate/begin/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Omit for resident-key mode (the authenticator names the account) */
                        email?: string;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            challenge: string;
                            challenge_id: number;
                            publicKey: {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webauthn/authenticate/complete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description From the begin answer; optional: the challenge is found from clientDataJSON */
                        challenge_id?: number;
                        /** @description The browser response (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser's answer) */
                        credential: {
                            authenticatorAttachment?: string | null;
                            clientExtensionResults?: {
                                [key: string]: unknown;
                            };
                            id: string;
                            rawId?: string;
                            /** @description clientDataJSON, attestationObject or authenticatorData and signature, base64url */
                            response: {
                                [key: string]: unknown;
                            };
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                        device_info?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The same as `access_token` (the Tenxyte SDK reads this one) */
                            access: string;
                            access_token: string;
                            /** @description The name of the passkey that signed in */
                            credential_used: string;
                            /** @description The account waits for its deletion: no refresh token, scope `deletion_pending` */
                            deletion_pending?: boolean;
                            device_id: string;
                            device_summary: string | null;
                            expires_in: number;
                            message: string;
                            must_change_password: boolean;
                            /** @description The same as `refresh_token`: null in cookie mode, and when none is issued (the Tenxyte SDK reads this one) */
                            refresh: string | null;
                            refresh_expires_in: number;
                            refresh_token?: string;
                            requires_2fa: boolean;
                            /**
                             * Format: date-time
                             * @description When the grace period ends
                             */
                            scheduled_deletion_date?: string;
                            session_id: string;
                            token_scope?: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            user: {
                                avatar: string | null;
                                bio: string | null;
                                /** Format: date-time */
                                created_at: string;
                                custom_fields: {
                                    [key: string]: unknown;
                                } | null;
                                email: string | null;
                                first_name: string;
                                has_usable_password?: boolean;
                                id: string;
                                is_2fa_enabled: boolean;
                                is_active: boolean;
                                is_email_verified: boolean;
                                is_phone_verified: boolean;
                                language: string | null;
                                /** Format: date-time */
                                last_login: string | null;
                                last_name: string;
                                permissions: string[];
                                phone: string | null;
                                preferences: {
                                    email_notifications: boolean;
                                    marketing_emails: boolean;
                                    sms_notifications: boolean;
                                };
                                roles: string[];
                                timezone: string | null;
                                username: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webauthn/credentials/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            credentials: {
                                /** @description `platform` or `cross-platform` */
                                authenticator_type: string | null;
                                /** Format: date-time */
                                created_at: string;
                                device_name: string;
                                id: number;
                                is_active: boolean;
                                is_resident_key: boolean;
                                /** Format: date-time */
                                last_used_at: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webauthn/credentials/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webauthn/register/begin/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `platform` (default): a passkey on this device; `cross-platform`: a security key or a phone; `any`: the browser offers both */
                        authenticator_attachment?: "platform" | "cross-platform" | "any";
                        /** @description The account password, needed when the sign-in is older than SVC_REAUTH_MAX_AGE */
                        password?: string;
                        /** @description With two-factor authentication on, a TOTP or backup code, sent with `password` */
                        totp_code?: string;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            challenge: string;
                            challenge_id: number;
                            publicKey: {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webauthn/register/complete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description From the begin answer; optional: the challenge is found from clientDataJSON */
                        challenge_id?: number;
                        /** @description The browser response (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser's answer) */
                        credential: {
                            authenticatorAttachment?: string | null;
                            clientExtensionResults?: {
                                [key: string]: unknown;
                            };
                            id: string;
                            rawId?: string;
                            /** @description clientDataJSON, attestationObject or authenticatorData and signature, base64url */
                            response: {
                                [key: string]: unknown;
                            };
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                        device_name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            credential: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description The same as `name`: the Tenxyte SDK reads this one */
                                device_name: string;
                                /** @description `singleDevice` or `multiDevice` (synced) */
                                device_type: string;
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                last_used_at: string | null;
                                name: string;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhooks/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    is_active?: boolean;
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** Format: date-time */
                                created_at: string;
                                created_by: number | null;
                                description: string;
                                events: string[];
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description Event types to receive: user.created, user.updated, user.deleted, user.locked, user.banned, session.created, session.revoked, login.failed, password.changed, 2fa.enabled, 2fa.disabled, organization.member_added, organization.member_removed, deletion.requested, deletion.completed, agent.suspended, agent.action_pending, webhook.test */
                        events: string[];
                        is_active?: boolean;
                        /** @description Absolute http(s) URL receiving the POSTs */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description whsec_… — shown once; verify the webhook-signature header with it */
                            secret: string;
                            warning: string;
                            webhook: {
                                /** Format: date-time */
                                created_at: string;
                                created_by: number | null;
                                description: string;
                                events: string[];
                                id: number;
                                is_active: boolean;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhooks/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            created_by: number | null;
                            description: string;
                            events: string[];
                            id: number;
                            is_active: boolean;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description url and events are required; is_active and description left out keep their value */
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description Event types to receive: user.created, user.updated, user.deleted, user.locked, user.banned, session.created, session.revoked, login.failed, password.changed, 2fa.enabled, 2fa.disabled, organization.member_added, organization.member_removed, deletion.requested, deletion.completed, agent.suspended, agent.action_pending, webhook.test */
                        events: string[];
                        is_active?: boolean;
                        /** @description Absolute http(s) URL receiving the POSTs */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            created_by: number | null;
                            description: string;
                            events: string[];
                            id: number;
                            is_active: boolean;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description Event types to receive: user.created, user.updated, user.deleted, user.locked, user.banned, session.created, session.revoked, login.failed, password.changed, 2fa.enabled, 2fa.disabled, organization.member_added, organization.member_removed, deletion.requested, deletion.completed, agent.suspended, agent.action_pending, webhook.test */
                        events?: string[];
                        is_active?: boolean;
                        /** @description Absolute http(s) URL receiving the POSTs */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            created_by: number | null;
                            description: string;
                            events: string[];
                            id: number;
                            is_active: boolean;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "webhooks/{id}/deliveries/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    page?: number;
                    /** @description Above 100 is clamped to 100 */
                    page_size?: number;
                    status?: "pending" | "sending" | "delivered" | "failed";
                    type?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            next: string | null;
                            page: number;
                            page_size: number;
                            previous: string | null;
                            results: {
                                /** @description Each attempt, oldest first */
                                attempt_history: {
                                    /** @description 1 for the first attempt */
                                    attempt: number;
                                    /**
                                     * Format: date-time
                                     * @description When the attempt started
                                     */
                                    attempted_at: string;
                                    /** @description From the address check to the end of the answer, or to the failure */
                                    duration_ms: number;
                                    /** @description Why the attempt failed (HTTP 500, connect ECONNREFUSED …, no answer within 10 s, refused: …); null when it was delivered */
                                    error: string | null;
                                    /** @description The receiver's HTTP status; null when it did not answer */
                                    status_code: number | null;
                                }[];
                                /** @description How many attempts were made */
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                delivered_at: string | null;
                                /** @description The webhook-id header: the same on every attempt and replay */
                                event_id: string;
                                id: number;
                                last_error: string | null;
                                last_status_code: number | null;
                                /** Format: date-time */
                                next_attempt_at: string | null;
                                /** @description The event's data, as sent */
                                payload: {
                                    [key: string]: unknown;
                                };
                                replay_of: number | null;
                                status: "pending" | "sending" | "delivered" | "failed";
                                type: string;
                                webhook_id: number;
                            }[];
                            total_pages: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhooks/{id}/deliveries/{delivery_id}/replay/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    delivery_id: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                /** @description Each attempt, oldest first */
                                attempt_history: {
                                    /** @description 1 for the first attempt */
                                    attempt: number;
                                    /**
                                     * Format: date-time
                                     * @description When the attempt started
                                     */
                                    attempted_at: string;
                                    /** @description From the address check to the end of the answer, or to the failure */
                                    duration_ms: number;
                                    /** @description Why the attempt failed (HTTP 500, connect ECONNREFUSED …, no answer within 10 s, refused: …); null when it was delivered */
                                    error: string | null;
                                    /** @description The receiver's HTTP status; null when it did not answer */
                                    status_code: number | null;
                                }[];
                                /** @description How many attempts were made */
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                delivered_at: string | null;
                                /** @description The webhook-id header: the same on every attempt and replay */
                                event_id: string;
                                id: number;
                                last_error: string | null;
                                last_status_code: number | null;
                                /** Format: date-time */
                                next_attempt_at: string | null;
                                /** @description The event's data, as sent */
                                payload: {
                                    [key: string]: unknown;
                                };
                                replay_of: number | null;
                                status: "pending" | "sending" | "delivered" | "failed";
                                type: string;
                                webhook_id: number;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhooks/{id}/test/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery: {
                                /** @description Each attempt, oldest first */
                                attempt_history: {
                                    /** @description 1 for the first attempt */
                                    attempt: number;
                                    /**
                                     * Format: date-time
                                     * @description When the attempt started
                                     */
                                    attempted_at: string;
                                    /** @description From the address check to the end of the answer, or to the failure */
                                    duration_ms: number;
                                    /** @description Why the attempt failed (HTTP 500, connect ECONNREFUSED …, no answer within 10 s, refused: …); null when it was delivered */
                                    error: string | null;
                                    /** @description The receiver's HTTP status; null when it did not answer */
                                    status_code: number | null;
                                }[];
                                /** @description How many attempts were made */
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                delivered_at: string | null;
                                /** @description The webhook-id header: the same on every attempt and replay */
                                event_id: string;
                                id: number;
                                last_error: string | null;
                                last_status_code: number | null;
                                /** Format: date-time */
                                next_attempt_at: string | null;
                                /** @description The event's data, as sent */
                                payload: {
                                    [key: string]: unknown;
                                };
                                replay_of: number | null;
                                status: "pending" | "sending" | "delivered" | "failed";
                                type: string;
                                webhook_id: number;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
