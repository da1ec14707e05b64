// Package store keeps what the server must not lose — accounts, ratings,
// the state of every game in progress and the archive of finished games —
// in NATS JetStream, each write acknowledged only once JetStream has it on
// disk. By default the NATS server is embedded in the process (an
// in-process connection, no port opened, its files under the server's data
// directory), so nothing needs installing; Options.URL uses an existing
// NATS deployment instead.
//
// The buckets: accounts (SSH key → account, and each handle's claim),
// ratings (handle and speed → Glicko-2 rating), games (game id → live
// state), chats (game id → its chat's lines and mute), arenas (arena id →
// its definition); the stream archive holds finished games as PGN, in the
// order they ended, the stream played each player's finished games (one
// line each, played.go), and the stream of arenas each arena's events
// (arenas.go).
package store

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Options configure the store.
type Options struct {
	// Dir is the embedded server's directory (its JetStream files are in
	// Dir/jetstream). Required unless URL is set.
	Dir string
	// URL is an existing NATS server to use instead of the embedded one.
	URL string
	// MaxMemory and MaxStore bound the embedded JetStream's memory and
	// disk (0: 64 MB and 1 GB): the defaults would claim a share of the
	// whole machine.
	MaxMemory, MaxStore int64
	// Replicas is how many NATS servers keep each bucket and stream. On a
	// three-node cluster, 3: any one node may die and nothing is lost. 0
	// leaves the buckets as they are (1 for one made new), so that a tool
	// reading the store (serve export) does not rewrite what the servers
	// made; a number changes them to it.
	Replicas int
}

// Store is an open store. Its methods are safe for concurrent use.
type Store struct {
	ns       *server.Server // the embedded server; nil with Options.URL
	lock     *dirLock       // the embedded server's directory, held while open
	nc       *nats.Conn
	js       jetstream.JetStream
	accounts jetstream.KeyValue
	ratings  jetstream.KeyValue
	games    jetstream.KeyValue
	chats    jetstream.KeyValue // game id → its chat (chats.go)
	archive  jetstream.Stream
	played   jetstream.Stream   // each player's finished games (played.go)
	arenas   jetstream.KeyValue // arena id → its definition (arenas.go)
	arenaLog jetstream.Stream   // each arena's events (arenas.go)
	replicas int
}

// Bucket and stream names, and the archive's subjects.
const (
	accountsBucket = "squall_accounts"
	ratingsBucket  = "squall_ratings"
	gamesBucket    = "squall_games"
	chatsBucket    = "squall_chats"
	archiveStream  = "SQUALL_ARCHIVE"
	archiveSubject = "squall.archive"
)

// Open starts (or connects to) NATS and makes the buckets and the stream
// if they do not exist. An embedded store's directory is locked until
// Close: a second Open of it, in this process or another (a serve export
// while the server runs), is refused with ErrInUse.
func Open(ctx context.Context, opt Options) (*Store, error) {
	s := &Store{replicas: max(opt.Replicas, 0)}
	var err error
	if opt.URL != "" {
		s.nc, err = nats.Connect(opt.URL, nats.Name("squall serve"))
		if err != nil {
			return nil, fmt.Errorf("nats %s: %w", opt.URL, err)
		}
	} else {
		if opt.Dir == "" {
			return nil, errors.New("store: no directory for the embedded NATS server")
		}
		if s.lock, err = lockDir(opt.Dir); err != nil {
			return nil, err
		}
		if s.ns, err = startEmbedded(opt); err != nil {
			s.lock.release()
			return nil, err
		}
		if s.nc, err = nats.Connect("", nats.InProcessServer(s.ns)); err != nil {
			s.ns.Shutdown()
			s.lock.release()
			return nil, fmt.Errorf("embedded nats: %w", err)
		}
	}
	if err := s.setUp(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// startEmbedded runs the embedded server, with the limits the defaults
// lack: its own store directory (the default is a shared temp directory),
// bounded JetStream memory and disk, no signal handlers (the server's
// owner handles signals), no listening port, and every write synced to
// disk before it is acknowledged.
func startEmbedded(opt Options) (*server.Server, error) {
	mem, disk := opt.MaxMemory, opt.MaxStore
	if mem == 0 {
		mem = 64 << 20
	}
	if disk == 0 {
		disk = 1 << 30
	}
	ns, err := server.NewServer(&server.Options{
		ServerName:         "squall",
		JetStream:          true,
		StoreDir:           filepath.Join(opt.Dir, "jetstream"),
		JetStreamMaxMemory: mem,
		JetStreamMaxStore:  disk,
		SyncAlways:         true,
		DontListen:         true,
		NoSigs:             true,
		NoLog:              true,
	})
	if err != nil {
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("embedded nats: not ready after 10 s")
	}
	return ns, nil
}

// setUpTime bounds the making of the buckets: a new cluster may take
// seconds to elect each one's leader.
const setUpTime = time.Minute

// setUpTry bounds one try: a request to a cluster still forming may go
// unanswered, and the next one is.
const setUpTry = 5 * time.Second

func (s *Store) setUp(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, setUpTime)
	defer cancel()
	var err error
	if s.js, err = jetstream.New(s.nc); err != nil {
		return fmt.Errorf("jetstream: %w", err)
	}
	kv := func(name, what string) (jetstream.KeyValue, error) {
		return s.bucket(ctx, jetstream.KeyValueConfig{Bucket: name, Description: what, Storage: jetstream.FileStorage, History: 1})
	}
	if s.accounts, err = kv(accountsBucket, "Squall accounts: SSH key to handle, and handle claims"); err != nil {
		return err
	}
	if s.ratings, err = kv(ratingsBucket, "Squall Glicko-2 ratings by handle and speed"); err != nil {
		return err
	}
	if s.games, err = kv(gamesBucket, "Squall games in progress"); err != nil {
		return err
	}
	if s.chats, err = kv(chatsBucket, "Squall chats of the games in progress"); err != nil {
		return err
	}
	cfg := jetstream.StreamConfig{
		Name: archiveStream, Description: "Squall's finished games, PGN", Subjects: []string{archiveSubject + ".>"},
		Storage: jetstream.FileStorage, MaxMsgSize: 1 << 20,
		// A game archived again after a crash (see ArchiveGame) is
		// recognised by its id for this long.
		Duplicates: 24 * time.Hour,
	}
	if s.archive, err = s.stream(ctx, cfg); err != nil {
		return err
	}
	if s.played, err = s.stream(ctx, playedStreamConfig); err != nil {
		return err
	}
	if s.arenas, err = kv(arenasBucket, "Squall arena tournaments' definitions"); err != nil {
		return err
	}
	if s.arenaLog, err = s.stream(ctx, arenaStreamConfig); err != nil {
		return err
	}
	return nil
}

// stream opens the stream cfg names, making it (or bringing it to cfg) on
// the way, with the store's replicas: 0 keeps those it has.
func (s *Store) stream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	st, err := retrySetUp(ctx, func(ctx context.Context) (jetstream.Stream, error) {
		var err error
		if cfg.Replicas, err = s.replicasOf(ctx, cfg.Name); err != nil {
			return nil, err
		}
		return s.js.CreateOrUpdateStream(ctx, cfg)
	})
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", cfg.Name, err)
	}
	return st, nil
}

// bucket opens the key-value bucket cfg names, making it (or bringing it
// to cfg) on the way, with the store's replicas: 0 keeps those it has.
func (s *Store) bucket(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := retrySetUp(ctx, func(ctx context.Context) (jetstream.KeyValue, error) {
		var err error
		if cfg.Replicas, err = s.replicasOf(ctx, "KV_"+cfg.Bucket); err != nil {
			return nil, err
		}
		return s.js.CreateOrUpdateKeyValue(ctx, cfg)
	})
	if err != nil {
		return nil, fmt.Errorf("bucket %s: %w", cfg.Bucket, err)
	}
	return kv, nil
}

// replicasOf is how many servers the stream (a bucket's is KV_name)
// is to be kept by: the store's replicas if given, else as many as keep
// it now (1 for one not made yet).
func (s *Store) replicasOf(ctx context.Context, stream string) (int, error) {
	if s.replicas > 0 {
		return s.replicas, nil
	}
	st, err := s.js.Stream(ctx, stream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	return st.CachedInfo().Config.Replicas, nil
}

// retrySetUp runs make until it succeeds, fails for good, or ctx ends.
// Servers starting together race to make the same bucket (the loser is
// told the name or its subjects are taken, and finds it made on the next
// try), and a cluster still electing leaders answers late or not at all.
func retrySetUp[T any](ctx context.Context, try func(context.Context) (T, error)) (T, error) {
	for {
		tctx, cancel := context.WithTimeout(ctx, setUpTry)
		v, err := try(tctx)
		cancel()
		if err == nil || !setUpRetryable(err) || ctx.Err() != nil {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func setUpRetryable(err error) bool {
	var api *jetstream.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode {
		case jetstream.JSErrCodeStreamNameInUse,
			10065, // subjects overlap with an existing stream: made meanwhile
			10008: // JetStream system temporarily unavailable: electing
			return true
		}
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) ||
		errors.Is(err, nats.ErrNoResponders)
}

// Close closes the connection and stops the embedded server, waiting for
// it to end, then lets its directory go. Closing twice is harmless.
func (s *Store) Close() error {
	if s.nc != nil {
		s.nc.Close()
	}
	if s.ns != nil {
		s.ns.Shutdown()
		s.ns.WaitForShutdown()
	}
	s.lock.release()
	s.lock = nil
	return nil
}

// Conn is the store's NATS connection, which the servers of a cluster
// also talk over (requests to a game's host).
func (s *Store) Conn() *nats.Conn { return s.nc }

// key makes any string a valid bucket key (NATS keys allow few
// characters; SSH fingerprints and handles hold others).
func key(s string) string { return hex.EncodeToString([]byte(s)) }

// getJSON reads a bucket's value into v; found is false for a missing key.
func getJSON(ctx context.Context, b jetstream.KeyValue, k string, v any) (found bool, err error) {
	e, err := b.Get(ctx, k)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, json.Unmarshal(e.Value(), v)
}

func putJSON(ctx context.Context, b jetstream.KeyValue, k string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = b.Put(ctx, k, data)
	return err
}

// ExportPGN writes every archived game, in the order they ended, to w.
func (s *Store) ExportPGN(ctx context.Context, w io.Writer) (int, error) {
	info, err := s.archive.Info(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := s.archive.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return n, err
		}
		if _, err := w.Write(m.Data); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
