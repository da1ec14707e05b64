// Package serve is Squall's screens over SSH (bubbletea): the home screen,
// a room of live analysis (its board, panel and room list; the rooms
// themselves are server/room's), and the games between people, their
// lobby and spectators (the games are server/play's, assembled by package
// server), and the commands that print instead (pgn, games, help). Screens
// is what each session runs, the handler that server/sshd's SSH server
// takes; each session has its own program and lipgloss renderer. No
// domain type lives here: every type is a screen, a screen's part, or the
// messages between them.
package serve
