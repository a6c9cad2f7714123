#!/bin/sh
# Join redis-c1..redis-c6 into one cluster (3 primaries, one replica each), once: a cluster
# that already serves every slot is left as it is.
set -eu
if redis-cli -h redis-c1 cluster info | grep -q "cluster_state:ok"; then
  echo "the cluster is up already"
  exit 0
fi
nodes=""
for i in 1 2 3 4 5 6; do
  # CLUSTER MEET takes addresses: resolve the service names
  ip=$(getent hosts "redis-c$i" | awk '{print $1}')
  nodes="$nodes $ip:6379"
done
# shellcheck disable=SC2086 # one argument per node
redis-cli --cluster create $nodes --cluster-replicas 1 --cluster-yes
until redis-cli -h redis-c1 cluster info | grep -q "cluster_state:ok"; do sleep 1; done
echo "the cluster is up"
