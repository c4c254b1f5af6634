/**
 * @arcade-coin/server-kit: for a game developer's backend (docs/developers.md).
 * - createArcadeClient: the developer API (`/api/v1/...`) through openapi-fetch, typed from
 *   docs/openapi.json, with the API key as Bearer; verifyPaidInsertion and submitTrustedScore on top.
 * - verifyWebhook: the arcade's signed webhooks (Standard Webhooks), typed by event type.
 */
export { ArcadeApiError, createArcadeClient, submitTrustedScore, verifyPaidInsertion } from './client';
export type { ApiError, ArcadeClientOptions, DeveloperApiClient, DeveloperApiPaths, InsertionVerification, PaidInsertion, ScoreResult, SessionSummary } from './client';
export { verifyWebhook, webhookId, WebhookVerificationError, WEBHOOK_EVENT_TYPES } from './webhooks';
export type { WebhookEvent, WebhookEventData, WebhookEventType, WebhookHeaders } from './webhooks';
export type { components, paths } from './api.generated';
