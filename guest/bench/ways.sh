# Sourced by guest/bench.sh and guest/cost.sh: the ways of watching
# workqueues that make bench and make cost compare, and how to start and
# stop each.  $T is the tracefs mount (lib.sh).

stock="workqueue_queue_work workqueue_activate_work workqueue_execute_start workqueue_execute_end"
new="worklet_enqueue worklet_enqueue_delayed worklet_execute worklet_complete worklet_cancel workqueue_flush workqueue_creation workqueue_destruction"

# the hist way's triggers, "EVENT TRIGGER" each: set in this order after the
# synthetic events wq_lat and wq_run are made, removed in the reverse order
hist_triggers=(
	'workqueue/workqueue_queue_work hist:keys=work:t0=common_timestamp'
	'workqueue/workqueue_execute_start hist:keys=work:t1=common_timestamp:lat=common_timestamp-$t0:fn=function:onmatch(workqueue.workqueue_queue_work).trace(wq_lat,$lat,$fn)'
	'workqueue/workqueue_execute_end hist:keys=work:run=common_timestamp-$t1:fn2=function:onmatch(workqueue.workqueue_execute_start).trace(wq_run,$run,$fn2)'
	'synthetic/wq_lat hist:keys=fn.sym:vals=hitcount,lat:sort=lat.descending'
	'synthetic/wq_run hist:keys=fn.sym:vals=hitcount,run:sort=run.descending'
)

# setup WAY / teardown WAY: start and stop one way of watching
setup() {
	echo 0 > $T/tracing_on; echo > $T/trace
	case $1 in
	nothing) ;;
	stat) echo 1 > $T/workqueue_stat_enabled ;;	# rows kept: steady state
	stock|new)
		local e
		for e in ${!1}; do echo 1 > $T/events/workqueue/$e/enable; done
		echo 1 > $T/tracing_on ;;
	hist)
		# run time and latency per function, the ftrace way
		echo 'wq_lat u64 lat; unsigned long fn' >> $T/synthetic_events
		echo 'wq_run u64 run; unsigned long fn' >> $T/synthetic_events
		local t
		for t in "${hist_triggers[@]}"; do
			echo "${t#* }" >> "$T/events/${t%% *}/trigger"
		done
		;;
	esac
}
teardown() {
	case $1 in
	stat) echo 0 > $T/workqueue_stat_enabled ;;
	stock|new)
		echo 0 > $T/tracing_on
		local e
		for e in ${!1}; do echo 0 > $T/events/workqueue/$e/enable; done ;;
	hist)
		local i
		for ((i = ${#hist_triggers[@]} - 1; i >= 0; i--)); do
			echo "!${hist_triggers[$i]#* }" >> "$T/events/${hist_triggers[$i]%% *}/trigger"
		done
		echo '!wq_run' >> $T/synthetic_events
		echo '!wq_lat' >> $T/synthetic_events
		;;
	esac
	echo > $T/trace
}
