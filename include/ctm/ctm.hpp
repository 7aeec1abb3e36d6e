// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm: every primitive, one PTX instruction each, named after it (`.`→`_`). Including this
// umbrella costs the parse of every family, wgmma's generated operand lists included; kernels
// that care include the family headers they use.
#include <ctm/target.hpp>

// ---- common: sm_90a, sm_100a, sm_120a ----
#include <ctm/common/bar.hpp>
#include <ctm/common/cluster.hpp>
#include <ctm/common/clusterlaunchcontrol.hpp>  // sm_100a, sm_120a (multicast: sm_100a)
#include <ctm/common/config.hpp>
#include <ctm/common/cp_async.hpp>
#include <ctm/common/cp_async_bulk.hpp>
#include <ctm/common/cp_async_bulk_tensor.hpp>
#include <ctm/common/cvt.hpp>
#include <ctm/common/elect.hpp>
#include <ctm/common/f32x2.hpp>
#include <ctm/common/fence.hpp>
#include <ctm/common/griddepcontrol.hpp>
#include <ctm/common/ld_st.hpp>
#include <ctm/common/ldmatrix.hpp>
#include <ctm/common/math.hpp>
#include <ctm/common/mbarrier.hpp>
#include <ctm/common/mma_sync.hpp>
#include <ctm/common/red.hpp>
#include <ctm/common/setmaxnreg.hpp>
#include <ctm/common/sreg.hpp>
#include <ctm/common/shfl.hpp>
#include <ctm/common/stmatrix.hpp>
#include <ctm/common/tensormap.hpp>

// ---- sm_90a ----
#include <ctm/sm90/wgmma.hpp>
#include <ctm/sm90/wgmma_desc.hpp>

// ---- sm_100a, sm_120a ----
#include <ctm/sm100/tcgen05.hpp>             // tcgen05 and tensor memory: sm_100a
#include <ctm/sm120/mma_block_scale.hpp>     // FP8/FP6/FP4 and block-scaled mma.sync: sm_120a
