-- seen_actions.assignee held the assignee as the records name them, an
-- email among them; it now holds a hash of that (watch.assigneeKey), since
-- noticing a new assignee needs only equality. The old rows cannot be
-- hashed in SQL on both engines, so they go, and the watcher takes the
-- actions baseline again at its next poll (no DMs for what it finds then).
DELETE FROM seen_actions;
DELETE FROM watch_state WHERE name = 'actions_baselined';
