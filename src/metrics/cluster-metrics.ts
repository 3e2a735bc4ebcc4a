/**
 * @module metrics/cluster-metrics
 * Cluster mode's gauges, read at scrape time from the node's routes (cluster/routing.ts): the sessions this node
 * runs (each under its lease) and the nodes it sees alive. The counters (take-overs, releases, forwarded
 * requests, fenced writes) come from the threads like every other counter (metrics/catalog.ts).
 */
import { Gauge, type Registry } from 'prom-client'

export interface ClusterGaugeSource {
  /** Sessions this node runs, each under its lease. */
  leasesHeld(): number
  /** Nodes whose heartbeat this node saw at its last beat, itself included. */
  nodesLive(): number
}

export function registerClusterMetrics(registry: Registry, source: ClusterGaugeSource): void {
  const registers = [registry]
  new Gauge({
    name: 'gateway_cluster_leases_held',
    help: 'Cluster mode: sessions this node runs, each under its lease',
    registers,
    collect() {
      this.set(source.leasesHeld())
    },
  })
  new Gauge({
    name: 'gateway_cluster_nodes_live',
    help: 'Cluster mode: nodes whose heartbeat this node saw at its last beat, itself included',
    registers,
    collect() {
      this.set(source.nodesLive())
    },
  })
}
