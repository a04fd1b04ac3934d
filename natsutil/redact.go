package natsutil

import "strings"

// Redacted replaces the password (or a token given as user info) of each
// comma-separated URL in urls by "xxxxx", keeping the user name:
// "nats://u:secret@host:4222" gives "nats://u:xxxxx@host:4222" and
// "nats://token@host" gives "nats://xxxxx@host". Use it for every URL that
// is logged or returned in an error. Text that is not a URL is redacted the
// same way up to its last '@'.
func Redacted(urls string) string {
	parts := strings.Split(urls, ",")
	for i, u := range parts {
		parts[i] = redactOne(u)
	}
	return strings.Join(parts, ",")
}

func redactOne(u string) string {
	start := 0
	if i := strings.Index(u, "://"); i >= 0 {
		start = i + 3
	}
	rest := u[start:]
	end := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		end = i
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return u
	}
	user, _, hasPass := strings.Cut(rest[:at], ":")
	info := "xxxxx"
	if hasPass {
		info = user + ":xxxxx"
	}
	return u[:start] + info + rest[at:]
}
