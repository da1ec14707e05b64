// Package serve is Squall's screens over SSH (wish and bubbletea): the
// home screen, a room of live analysis (its board, panel and room list;
// the rooms themselves are server/room's), and the games between people,
// their lobby and spectators (the games are server/play's). Each session
// gets its own program and lipgloss renderer.
//
// It also holds the SSH server that runs those screens (server.go,
// terminal.go) and the assembly of the games' services (playstart.go,
// seats.go).
package serve
