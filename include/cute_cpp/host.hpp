// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host runtime: errors, the run-time target check, launch, device buffers.
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/target_check.hpp>
