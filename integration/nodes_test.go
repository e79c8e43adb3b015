package integration

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/pgtest"
)

// nodeLoad is how many submissions the several-node test sends, 32 at a
// time: enough for each event of the run to fall while others are in
// flight, few enough for a test of about a minute on two cores.
const nodeLoad = 320

// TestTwoNodesBehindABalancerDeliverEverySubmissionOnce runs the layout of
// README's "Scaling out" on one machine: two nodes on 127.0.0.2 and
// 127.0.0.3, each an Apache with the gateway, its own record file and its
// own `cgigate deliver`, behind a balancing Apache (mod_proxy_balancer),
// all delivering into one PostgreSQL. Under a 32-way load through the
// front, one node's deliverer is killed and started again and the
// database is stopped and started again, each after a share of the
// answers. Afterwards every submission answered 2xx is in the table
// exactly once (count, ids and checksums against the two record files)
// and none that was refused.
func TestTwoNodesBehindABalancerDeliverEverySubmissionOnce(t *testing.T) {
	pg := pgtest.Start(t, pgtest.Options{})
	var records, members []string
	var ds []*deliverer
	for _, host := range []string{"127.0.0.2", "127.0.0.3"} {
		path := recordPath(t)
		s := startGateway(t, apachetest.Options{Host: host, Env: map[string]string{"CGIGATE_RECORD": path}})
		d := newDeliverer(t, path, pg.DSN)
		d.start(t)
		records, members, ds = append(records, path), append(members, s.URL), append(ds, d)
	}
	front := apachetest.Start(t, apachetest.Options{Balance: members})

	var answered atomic.Int64
	load := make(chan loadResult)
	go func() { load <- submitLoad(front, 32, 0, nodeLoad, func(n int) { answered.Store(int64(n)) }) }()
	after := func(n int, what string) {
		waitUntil(t, fmt.Sprintf("%d answers, to %s", n, what), func() bool { return answered.Load() >= int64(n) })
		t.Logf("%d of %d answered: %s", answered.Load(), nodeLoad, what)
	}
	after(nodeLoad/5, "kill the first node's deliverer")
	ds[0].kill(t)
	after(2*nodeLoad/5, "start it again")
	ds[0].start(t)
	after(3*nodeLoad/5, "stop PostgreSQL")
	pg.Stop(t)
	after(4*nodeLoad/5, "start PostgreSQL again")
	pg.Start(t)
	outs := mustSubmit(t, front, <-load)

	waitDelivered(t, pg, outs, ds...)
	for _, d := range ds {
		d.stop(t)
	}
	checkDelivered(t, pg.DSN, records, outs)
	// The balancer spread the load: each node recorded a fair share.
	for i, p := range records {
		if n := len(fileRows(t, []string{p})); n < len(accepted(outs))/4 {
			t.Errorf("node %d recorded %d of %d submissions", i+1, n, len(accepted(outs)))
		}
	}
}
