// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05.hpp: every sm_100a tcgen05 / tensor-memory primitive. Each wrapper is a
// compile error on sm_90a and sm_120a naming its instruction; the descriptor encoders are
// plain constexpr code usable anywhere.
#include <ctm/sm100/tcgen05_desc.hpp>     // tcgen05_smem_desc, tcgen05_idesc
#include <ctm/sm100/tcgen05_alloc.hpp>    // tcgen05_alloc, tcgen05_dealloc, relinquish
#include <ctm/sm100/tcgen05_mma.hpp>      // tcgen05_mma, tcgen05_mma_a_tmem, tcgen05_mma_block_scale
#include <ctm/sm100/tcgen05_mma_collector.hpp>  // tcgen05_mma_collector_a and its variants
#include <ctm/sm100/tcgen05_sync.hpp>     // tcgen05_commit, fences, waits
#include <ctm/sm100/tcgen05_ld_st.hpp>    // tcgen05_ld, tcgen05_st
#include <ctm/sm100/tcgen05_cp.hpp>       // tcgen05_cp, tcgen05_shift_down
