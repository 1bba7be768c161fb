// The Slack type each kind of golden file must satisfy, taken from Slack's
// own published packages (pinned in package.json). check.mjs inlines every
// golden as an object literal annotated with one of these types, so the
// TypeScript compiler checks literal values ("section", "home") and rejects
// properties Slack does not define (excess-property checks).
import type { RespondArguments } from '@slack/bolt';
import type { HomeView, KnownBlock, ModalView } from '@slack/types';
import type { ChatPostMessageArguments, ChatUnfurlArguments, EntityPresentDetailsArguments } from '@slack/web-api';

// Slack's types accept `(KnownBlock | Block)[]`, where Block is only
// `{ type: string }`, so that new block types compile before the package
// knows them. That would let `type: "sektion"` through, which the API rejects
// with invalid_blocks; our goldens may use only the blocks Slack publishes, so
// every `blocks` is narrowed to KnownBlock[]. (Slack answers invalid_blocks
// for blocks it cannot read: slackapi/python-slack-sdk#1257.) The conditional distributes over
// Slack's unions (ChatPostMessageArguments is one) and keeps optionality.
type KnownBlocksOnly<T> = T extends unknown
  ? 'blocks' extends keyof T
    ? Omit<T, 'blocks'> & ({} extends Pick<T, 'blocks'> ? { blocks?: KnownBlock[] } : { blocks: KnownBlock[] })
    : T
  : never;

/**
 * PostedMessage is the arguments of chat.postMessage from @slack/web-api.
 * Goldens hold no `channel`, so check.mjs adds a placeholder one; `metadata`
 * is checked against @slack/types MessageMetadata when present.
 */
export type PostedMessage = KnownBlocksOnly<ChatPostMessageArguments>;

/** HomeTab is the `view` argument of views.publish for an App Home tab. */
export type HomeTab = KnownBlocksOnly<HomeView>;

/**
 * Modal is the `view` argument of views.open and views.update for a modal,
 * and the `view` of a view_submission answer with response_action update.
 */
export type Modal = KnownBlocksOnly<ModalView>;

/**
 * Unfurl is one value of the `unfurls` argument of chat.unfurl: the
 * attachment shown under one link (@slack/types MessageAttachment).
 */
export type Unfurl = KnownBlocksOnly<Extract<ChatUnfurlArguments, { unfurls: unknown }>['unfurls'][string]>;

/**
 * ResponseBody is a body POSTed to an interaction's response_url. Slack
 * publishes no type for it in @slack/types or @slack/web-api; @slack/bolt's
 * RespondArguments (chat.postMessage arguments less `channel`, plus
 * response_type, replace_original and delete_original) is Slack's own:
 * https://docs.slack.dev/tools/bolt-js/reference/type-aliases/RespondArguments
 */
export type ResponseBody = KnownBlocksOnly<RespondArguments>;

/**
 * WorkObjectUnfurl is the `metadata` argument of chat.unfurl that carries
 * Work Object entities (@slack/types EntityMetadata, each with its
 * app_unfurl_url): https://docs.slack.dev/messaging/work-objects-implementation
 */
export type WorkObjectUnfurl = Extract<ChatUnfurlArguments, { metadata: unknown }>['metadata'];

/**
 * Panel is the arguments of entity.presentDetails less trigger_id (the
 * click's, which a golden cannot hold): a flexpane's `metadata`, or the
 * `error` shown instead: https://docs.slack.dev/reference/methods/entity.presentDetails
 */
export type Panel = Omit<EntityPresentDetailsArguments, 'trigger_id' | 'token'>;
