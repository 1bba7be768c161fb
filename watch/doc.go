// Package watch is recordsbot's watcher: one poll of the records service
// that announces newly visible minutes in the channels that follow their
// committee, and DMs people about actions newly assigned to them, each
// exactly once. `recordsbot watch` runs one poll and exits (a CronJob every
// few minutes); `serve` can run polls in the background (WATCH_INTERVAL).
//
// # One poller at a time
//
// A poll first takes the store's leader lock "watch" (TryLock) for a short
// ttl (Config.LockTTL, 1 minute) and renews it every Config.Heartbeat
// (20 s) while it runs; a poll that does not get it returns at once with
// Summary.Busy set. A poller that dies mid-poll stops renewing, so the
// next poll after its ttl runs: DMs and announcements are late by at most
// a minute and a poll interval (the ttl was 10 minutes before the
// heartbeat). A poller that finds its lock taken over (it stalled past the
// ttl) stops its poll; the ledger keeps anything it had in flight from
// going out twice.
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
//   - GetMinutes: at most once per meeting per poll, never for a meeting
//     still to come: for a meeting that belongs to a followed committee
//     and is not already announced as approved in every following
//     channel; and, for search, for a meeting dated within Config.Backfill
//     whose minutes are not indexed as approved, or within Config.Lookback
//     indexed as a draft.
//   - The active actions once (actions.Service.List: the list the commands
//     share), and users.lookupByEmail at most once per assignee who gets a
//     DM (cached for the poll). Digests read that list too, and the
//     complete actions at most once a poll when some action left it.
//   - GetMeeting once a poll per upcoming meeting whose brief is due or
//     out (its agenda, so that a brief is kept up to date until the
//     meeting starts), whatever the channels. TestDigestAndBriefCost measures
//     these with 1, 5 and 20 committees followed (docs/jobs.md).
//   - Slack: one chat.postMessage per announcement or DM, a chat.update and
//     a threaded reply per approved draft, and a conversations.history
//     (plus conversations.open for a DM, or conversations.replies for an
//     approval's thread reply) only for work whose earlier
//     worker stopped mid-way. Every one is paced (Deps.Pacer,
//     slackapi.Pacer, as the reminders' are): each method to its tier,
//     posts one a second per channel.
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
// Every announcement and DM is posted through internal/once (the package
// doc there is the contract), under a ledger key:
// "announce/<channel>/<meeting>/<status>" (and ".../reply" for an
// approval's thread reply) and "assign/<user>/<meeting>/<hash of the
// action IDs>". The post carries its key in its message metadata, so a
// worker that stopped after posting and before recording is found out by
// the next claimant, which looks for the key in the conversation's history
// and records the post it finds instead of posting again. A post Slack
// refused is released and retried by the next poll; a post whose outcome
// is unknown (a timeout) is left to lapse and checked in the history. The
// store's own rows (announcements, seen assignees) are written after the
// ledger and derive from it, so a crash between the two is repaired by the
// next poll (the ledger gives back the ts).
//
// # Baselines
//
// Following starts now: a follow not yet baselined has the visible minutes
// of its committee's meetings within the lookback recorded as announced
// (with no post) on its first poll, and is then marked baselined. Likewise
// the first poll against an organisation records every active action's
// assignee and sends no DM.
package watch
