// Package watch is recordsbot's watcher: one poll of the records service
// that announces newly visible minutes in the channels that follow their
// committee, and DMs people about actions newly assigned to them, each
// exactly once. `recordsbot watch` runs one poll and exits (a CronJob every
// few minutes); `serve` can run polls in the background (WATCH_INTERVAL).
//
// # One poller at a time
//
// A poll first takes the store's leader lock "watch" (TryLock); a poll that
// does not get it returns at once with Summary.Busy set. The lock's ttl
// outlasts a poll; a poll that dies holding it delays the next by at most
// the ttl.
//
// # Cost of a poll
//
// With F follows and A active actions, one poll makes:
//
//   - ListMeetings: pages, newest first, until the first meeting dated
//     before the horizon (at most Config.MaxMeetingPages pages). The
//     horizon is Config.Backfill (14 days) before today, since meetings
//     reach the records after they are held; or, further back, the date of
//     the oldest meeting of a followed committee whose minutes were not yet
//     approved (or not yet announced everywhere) at the last poll; never
//     older than Config.Lookback (60 days). A poll with a new follow to
//     baseline reads back the whole Lookback. A meeting first entered in
//     the records more than Backfill after its date is not announced.
//     The search index (below) walks the same pages, each read once a
//     poll, back to Config.Lookback.
//   - GetMinutes: at most once per meeting per poll: for a meeting that
//     belongs to a followed committee and is not already announced as
//     approved in every following channel; and, for search, for a meeting
//     dated within Config.Backfill whose minutes are not indexed as
//     approved, or within Config.Lookback indexed as a draft.
//   - The active actions once (actions.Service.List: the list the commands
//     share), and users.lookupByEmail at most once per assignee who gets a
//     DM (cached for the poll).
//   - Slack: one chat.postMessage per announcement or DM, a chat.update and
//     a threaded reply per approved draft, and a conversations.history
//     (plus conversations.open for a DM, or conversations.replies for an
//     approval's thread reply) only for work whose earlier
//     worker stopped mid-way.
//
// # Search
//
// Every minutes read indexes what it found (minutes.Apply): visible
// minutes go into the store's search index, minutes not found or hidden
// leave it, so after one poll everything newly visible is searchable.
// Minutes that change long after their meeting are caught by the
// background backfill (minutes.Backfill), which re-reads the history
// daily.
//
// # Exactly once
//
// Every announcement and DM is a ledger key (store.Claim):
// "announce/<channel>/<meeting>/<status>" and
// "assign/<user>/<meeting>/<hash of the action IDs>". "Recorded" means the
// ledger's Done with the message ts: the post carries its key in its
// message metadata, so a worker that stopped after posting and before Done
// is found out by the next claimant (ClaimExpired), which looks for the
// key in the conversation's history and records the post it finds instead
// of posting again. A post Slack refused is released and retried by the
// next poll; a post whose outcome is unknown (a timeout) is left to lapse
// and checked in the history. The store's own rows (announcements, seen
// assignees) are written after Done and derive from it, so a crash between
// the two is repaired by the next poll (ClaimDone gives back the ts).
//
// # Baselines
//
// Following starts now: a follow not yet baselined has the visible minutes
// of its committee's meetings within the lookback recorded as announced
// (with no post) on its first poll, and is then marked baselined. Likewise
// the first poll against an organisation records every active action's
// assignee and sends no DM.
package watch
