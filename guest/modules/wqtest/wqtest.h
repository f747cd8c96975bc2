/* SPDX-License-Identifier: GPL-2.0 */
/* wqtest: what core.c, stress.c, pctl.c, life.c and cmwq.c share */
#ifndef WQTEST_H
#define WQTEST_H


#include <linux/workqueue.h>

void wqt_result_set(const char *fmt, ...) __printf(1, 2);
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
int wqt_scn_churn(unsigned int n, unsigned int names, unsigned int rest_us);
int wqt_scn_twins(unsigned int a, unsigned int b);
void wqt_life_exit(void);
int wqt_scn_cmwq(struct workqueue_struct *host_wq, const char *name,
		 unsigned int a, unsigned int b);

#endif
