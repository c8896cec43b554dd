"""What federation's pages do: the account flows (`accounts`), the outbox of e-mails every app queues
(`notifications`) and the attempt counters of the account pages (`throttle`)."""
