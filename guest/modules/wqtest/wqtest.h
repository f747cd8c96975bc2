/* SPDX-License-Identifier: GPL-2.0 */
/* wqtest: what core.c, stress.c, pctl.c, life.c, cmwq.c and win.c share */
#ifndef WQTEST_H
#define WQTEST_H


#include <linux/workqueue.h>

void wqt_result_set(const char *fmt, ...) __printf(1, 2);
void wqt_result_win(const char *prefix, unsigned int first, unsigned int n,
		    u64 delay_ns);
int wqt_win_begin(struct work_struct *base, size_t stride, unsigned int n);
void wqt_win_fn_start(struct work_struct *work);
void wqt_win_fn_end(struct work_struct *work);
void wqt_win_end(void);
int wqt_win_report(char *buf, size_t len, const char *prefix,
		   unsigned int first, unsigned int n, u64 delay_ns);
int wqt_win_late(unsigned int i, u64 delay_ns, u64 *lo, u64 *hi);
void wqt_win_free(void);
int wqt_scn_latechurn(unsigned int n, unsigned int delay);
s64 wqt_spin(unsigned int us);
int wqt_run_many(struct workqueue_struct *wq, work_func_t fn, unsigned int n);
void wqt_item_ran(void);
int wqt_items_ran(void);
int wqt_scn_stress(unsigned int seconds, unsigned int life_max);
int wqt_scn_pctl(const char *mode, unsigned int n);
int wqt_scn_system(unsigned int n);
int wqt_scn_deferrable(unsigned int n);
int wqt_scn_hugedelay(void);
int wqt_scn_barriers(struct workqueue_struct *wq, unsigned int seconds);
int wqt_scn_churn(unsigned int n, unsigned int names, unsigned int rest_us,
		  unsigned int first);
int wqt_scn_twins(unsigned int a, unsigned int b);
void wqt_life_exit(void);
int wqt_scn_cmwq(struct workqueue_struct *host_wq, const char *name,
		 unsigned int a, unsigned int b);

#endif
